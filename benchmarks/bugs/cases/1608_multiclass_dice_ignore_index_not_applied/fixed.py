from typing import Optional

import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor
from torch.nn.modules.loss import _Loss


def soft_dice_score(
    output: Float[Tensor, "B C P"], target: Float[Tensor, "B C P"], smooth: float = 0.0, eps: float = 1e-7
) -> Float[Tensor, " C"]:
    inter = (output * target).sum(dim=(0, 2))
    card = (output + target).sum(dim=(0, 2))
    return (2.0 * inter + smooth) / (card + smooth).clamp_min(eps)


class MulticlassDiceLoss(_Loss):
    def __init__(self, ignore_index: Optional[int] = None, smooth: float = 0.0):
        super().__init__()
        self.ignore_index = ignore_index
        self.smooth = smooth

    def forward(self, y_pred: Float[Tensor, "B C H W"], y_true: Int[Tensor, "B H W"]) -> Float[Tensor, ""]:
        bs, num_classes = y_pred.shape[:2]
        y_pred = y_pred.log_softmax(dim=1).exp().view(bs, num_classes, -1)
        y_true = y_true.view(bs, -1)
        if self.ignore_index is not None:
            keep = y_true != self.ignore_index
            y_pred = y_pred * keep.unsqueeze(1)
            y_true = F.one_hot(y_true * keep, num_classes).permute(0, 2, 1) * keep.unsqueeze(1)
        else:
            y_true = F.one_hot(y_true, num_classes).permute(0, 2, 1)
        scores = soft_dice_score(y_pred, y_true.type_as(y_pred), smooth=self.smooth)
        present = y_true.sum(dim=(0, 2)) > 0
        return ((1.0 - scores) * present).mean()


def ade_batch(generator: torch.Generator) -> tuple[Float[Tensor, "2 6 12 12"], Int[Tensor, "2 12 12"]]:
    logits = torch.randn(2, 6, 12, 12, generator=generator)
    mask = torch.randint(1, 6, (2, 12, 12), generator=generator)
    mask[:, :4, :] = 0
    return logits, mask


if __name__ == "__main__":
    g = torch.Generator().manual_seed(1)
    logits, mask = ade_batch(g)
    loss_ignore = MulticlassDiceLoss(ignore_index=0)(logits, mask)
    cropped = MulticlassDiceLoss(ignore_index=0)(logits[:, :, 4:], mask[:, 4:])
    probs = logits.softmax(dim=1)
    b, c, h, w = logits.shape
    terms = []
    for k in range(c):
        inter, card, count = 0.0, 0.0, 0
        for n in range(b):
            for y in range(h):
                for x in range(w):
                    t = mask[n, y, x].item()
                    if t == 0:
                        continue
                    p = probs[n, k, y, x].item()
                    hit = 1.0 if t == k else 0.0
                    inter += p * hit
                    card += p + hit
                    count += int(hit)
        score = 2.0 * inter / max(card, 1e-7)
        terms.append((1.0 - score) if count > 0 else 0.0)
    ref = sum(terms) / c
    assert abs(loss_ignore.item() - ref) < 1e-5, (loss_ignore.item(), ref)
    assert abs(cropped.item() - ref) < 1e-5
    print("ok")
