import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class SemSegDataset(Dataset):
    """Semantic segmentation samples for a large-vocabulary benchmark.

    Each item is a dict with:
        image (Tensor): float image of shape (3, H, W).
        sem_seg (Tensor): per-pixel category ids of shape (H, W).
    """

    def __init__(self, images, label_maps):
        self.images = images
        self.label_maps = label_maps

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        # ids go up to 846 on ADE-847, so they need more than 8 bits
        sem_seg = torch.as_tensor(self.label_maps[i]).to(torch.int64)
        return {"image": self.images[i], "sem_seg": sem_seg}


def pixel_nll(logits, sem_seg):
    """Mean negative log-likelihood of the annotated category.

    Args:
        logits (Tensor): class scores of shape (B, K, H, W).
        sem_seg (Tensor): category ids of shape (B, H, W).

    Returns:
        Tensor: scalar loss.
    """
    logp = F.log_softmax(logits, dim=1)
    picked = logp.gather(1, sem_seg.long().unsqueeze(1))
    return -picked.mean()


def main():
    torch.manual_seed(0)
    num_classes = 300  # ADE-style vocabulary
    images = [torch.randn(3, 4, 4) for _ in range(2)]
    label_maps = [torch.randint(0, num_classes, (4, 4)) for _ in range(2)]
    loader = DataLoader(SemSegDataset(images, label_maps), batch_size=2)
    head = torch.nn.Conv2d(3, num_classes, kernel_size=1)
    batch = next(iter(loader))
    logits = head(batch["image"])
    loss = pixel_nll(logits, batch["sem_seg"])
    truth = torch.stack(label_maps)
    logp = F.log_softmax(logits, dim=1)
    ref = 0.0
    for b in range(truth.shape[0]):
        for y in range(truth.shape[1]):
            for x in range(truth.shape[2]):
                ref -= logp[b, int(truth[b, y, x]), y, x].item()
    ref /= truth.numel()
    assert torch.equal(batch["sem_seg"], truth)
    assert abs(loss.item() - ref) < 1e-5, (loss.item(), ref)
    print("ok")


if __name__ == "__main__":
    main()
