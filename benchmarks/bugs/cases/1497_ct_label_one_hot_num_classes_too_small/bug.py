import torch
from torch import nn


def one_hot(labels, num_classes, dtype=torch.float, dim=1):
    # labels: (B, 1, H, W, D) integer label map -> (B, num_classes, H, W, D)
    sh = list(labels.shape)
    if sh[dim] != 1:
        raise AssertionError("labels should have a channel with length equal to one.")
    sh[dim] = num_classes
    o = torch.zeros(size=sh, dtype=dtype, device=labels.device)
    return o.scatter_(dim=dim, index=labels.long(), value=1)


class SoftDiceLoss(nn.Module):
    def __init__(self, num_classes, include_background=False, smooth=1e-5):
        super().__init__()
        self.num_classes = num_classes
        self.include_background = include_background
        self.smooth = smooth

    def forward(self, logits, target):
        # logits: (B, C, H, W, D), target: (B, 1, H, W, D)
        probs = torch.softmax(logits, dim=1)
        target = one_hot(target, num_classes=self.num_classes)
        if not self.include_background:
            probs, target = probs[:, 1:], target[:, 1:]
        reduce_axis = list(range(2, probs.dim()))
        inter = (probs * target).sum(reduce_axis)
        denom = probs.sum(reduce_axis) + target.sum(reduce_axis)
        return (1.0 - (2.0 * inter + self.smooth) / (denom + self.smooth)).mean()


CONFIG = {
    "num_classes": 2,       # background + foreground
    "patch_size": (16, 16, 16),
    "batch_size": 2,
}


def make_batch(cfg):
    image = torch.randn(cfg["batch_size"], 1, *cfg["patch_size"])
    # liver task label maps: 0 background, 1 liver, 2 tumour
    label = torch.zeros(cfg["batch_size"], 1, *cfg["patch_size"], dtype=torch.uint8)
    label[:, :, 4:12, 4:12, 4:12] = 1
    label[:, :, 6:9, 6:9, 6:9] = 2
    return image, label


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Conv3d(1, CONFIG["num_classes"], kernel_size=3, padding=1)
    loss_fn = SoftDiceLoss(num_classes=CONFIG["num_classes"])
    image, label = make_batch(CONFIG)
    loss = loss_fn(net(image), label)
    print("dice loss:", loss.item())
