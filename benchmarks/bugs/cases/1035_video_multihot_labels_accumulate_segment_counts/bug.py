import torch
import torch.nn.functional as F
from jaxtyping import Float, Int

NUM_CLASSES = 6


def collate_videos(samples) -> tuple[Float[torch.Tensor, "batch time feat"], Float[torch.Tensor, "batch classes"]]:
    # each sample: (features [T, D], classes of its annotated segments)
    feats = torch.stack([f for f, _ in samples])
    labels = torch.zeros(len(samples), NUM_CLASSES)
    for i, (_, seg_classes) in enumerate(samples):
        seg_cls: Int[torch.Tensor, "segments"] = torch.as_tensor(seg_classes, dtype=torch.long)
        labels[i].scatter_add_(0, seg_cls, torch.ones(seg_cls.shape[0]))
    return feats, labels


def mil_loss(
    cas: Float[torch.Tensor, "batch time classes"],
    labels: Float[torch.Tensor, "batch classes"],
    k: int = 4,
) -> Float[torch.Tensor, ""]:
    video_scores = cas.topk(k, dim=1).values.mean(1)               # [B, C]
    target = labels / labels.sum(dim=1, keepdim=True).clamp(min=1e-6)
    return -(target * F.log_softmax(video_scores, dim=1)).sum(1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    samples = [
        (torch.randn(16, 8), [2, 2, 2, 2, 5]),        # four "long jump" segments, one "pole vault"
        (torch.randn(16, 8), [0]),
        (torch.randn(16, 8), [1, 3, 3]),
    ]
    feats, labels = collate_videos(samples)
    head = torch.nn.Linear(8, NUM_CLASSES)
    loss = mil_loss(head(feats), labels)
    print("labels:", labels.tolist())
    print("mil loss:", round(loss.item(), 4))
