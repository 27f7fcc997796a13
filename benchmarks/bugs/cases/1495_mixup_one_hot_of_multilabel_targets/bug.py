import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor, nn
from torch.distributions.beta import Beta


class MixupBlending:
    """Mixup for action recognition: blends clips and their (one-hot) labels inside a batch."""

    def __init__(self, num_classes: int, alpha: float = 0.2):
        self.num_classes = num_classes
        self.beta = Beta(alpha, alpha)

    def do_blending(self, imgs: Float[Tensor, "batch ..."], label: Float[Tensor, "batch classes"]):
        lam = self.beta.sample()
        perm = torch.randperm(imgs.size(0))
        self.last_lam, self.last_perm = float(lam), perm
        mixed_imgs = lam * imgs + (1 - lam) * imgs[perm]
        mixed_label = lam * label + (1 - lam) * label[perm]
        return mixed_imgs, mixed_label

    def __call__(self, imgs: Float[Tensor, "batch ..."], gt_labels: list[Int[Tensor, "..."]]):
        label = torch.stack(gt_labels).to(imgs.device)
        one_hot_label = F.one_hot(label, num_classes=self.num_classes).float()
        return self.do_blending(imgs, one_hot_label)


class TinyRecognizer(nn.Module):
    def __init__(self, num_classes: int, channels: int = 3):
        super().__init__()
        self.backbone = nn.Conv3d(channels, 16, kernel_size=3, padding=1)
        self.cls_head = nn.Linear(16, num_classes)

    def forward(self, imgs: Float[Tensor, "batch channels frames height width"]) -> Float[Tensor, "batch classes"]:
        feats = self.backbone(imgs).mean(dim=(2, 3, 4))
        return self.cls_head(feats)


def train_step(model, blending, imgs, gt_labels, multi_label):
    imgs, soft_labels = blending(imgs, gt_labels)
    cls_score = model(imgs)
    if multi_label:
        return F.binary_cross_entropy_with_logits(cls_score, soft_labels)
    return torch.sum(-soft_labels * F.log_softmax(cls_score, dim=-1), dim=-1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes = 10
    model = TinyRecognizer(num_classes)
    blending = MixupBlending(num_classes=num_classes, alpha=0.2)
    imgs = torch.randn(4, 3, 8, 32, 32)

    # Charades-style multi-label clips: each clip carries a multi-hot vector over the 10 actions
    multi_hot = torch.zeros(4, num_classes, dtype=torch.long)
    multi_hot[0, [1, 4]] = 1
    multi_hot[1, [2]] = 1
    multi_hot[2, [0, 7, 9]] = 1
    multi_hot[3, [5, 6]] = 1
    gt_labels = list(multi_hot)

    loss = train_step(model, blending, imgs, gt_labels, multi_label=True)
    print("loss:", loss.item())
