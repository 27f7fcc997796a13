import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class LineCNNSimple(nn.Module):
    """Slides a small CNN over a text-line image and predicts one character per window."""

    def __init__(self, num_classes: int, window_width: int = 28, window_stride: int = 28):
        super().__init__()
        self.window_width = window_width
        self.window_stride = window_stride
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(28 * window_width, 64), nn.ReLU(), nn.Linear(64, num_classes))

    def forward(self, x: Float[Tensor, "batch 1 28 width"]) -> Float[Tensor, "batch classes seq"]:
        windows = x.unfold(3, self.window_width, self.window_stride)  # B, 1, 28, S, W
        windows = windows.permute(0, 3, 1, 2, 4)
        b, s = windows.shape[:2]
        logits = self.body(windows.reshape(b * s, 1, 28, self.window_width))
        return logits.view(b, s, -1).permute(0, 2, 1)


def gold_char_confidence(
    logits: Float[Tensor, "batch classes seq"], target: Int[Tensor, "batch seq"]
) -> Float[Tensor, "batch seq"]:
    probs = torch.softmax(logits, dim=-1)
    return probs.gather(1, target.unsqueeze(1)).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = LineCNNSimple(num_classes=83)
    images = torch.rand(3, 1, 28, 28 * 16)
    target = torch.randint(0, 83, (3, 16))
    conf = gold_char_confidence(model(images), target)
    print("mean gold-character probability:", conf.mean().item())
    print("per-position probabilities of all classes sum to:", torch.softmax(model(images), dim=-1)[0, :, 0].sum().item())
