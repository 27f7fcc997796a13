import torch
import torch.nn as nn


class DiceLoss(nn.Module):
    def __init__(self, num_classes: int, smooth: float = 1.0, ignore_background: bool = False):
        super().__init__()
        self.num_classes = num_classes
        self.smooth = smooth
        self.start = 1 if ignore_background else 0

    def forward(self, logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        probs = logits.softmax(dim=1)
        one_hot = torch.zeros_like(probs).scatter_(1, target.unsqueeze(1), 1.0)
        dims = (0, 2, 3)
        inter = (probs * one_hot).sum(dims)
        union = probs.sum(dims) + one_hot.sum(dims)
        dice = (2 * inter + self.smooth) / (union + self.smooth)
        return 1.0 - dice[self.start:].mean()


class TinySegNet(nn.Module):
    def __init__(self, in_ch: int, num_classes: int):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(in_ch, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, num_classes, 1))

    def forward(self, x):
        return self.body(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    net = TinySegNet(in_ch=3, num_classes=4)
    criterion = DiceLoss(num_classes=4)
    images = torch.randn(2, 3, 8, 8)
    masks = torch.randint(0, 4, (2, 8, 8))
    loss = criterion(net(images), masks)
    with torch.no_grad():
        probs = net(images).softmax(dim=1)
        dices = []
        for c in range(4):
            inter, psum, tsum = 0.0, 0.0, 0.0
            for b in range(2):
                for y in range(8):
                    for x in range(8):
                        t = 1.0 if int(masks[b, y, x]) == c else 0.0
                        p = probs[b, c, y, x].item()
                        inter += p * t
                        psum += p
                        tsum += t
            dices.append((2 * inter + 1.0) / (psum + tsum + 1.0))
        ref = 1.0 - sum(dices) / 4
    assert abs(loss.item() - ref) < 1e-5
    loss.backward()
    print("ok")
