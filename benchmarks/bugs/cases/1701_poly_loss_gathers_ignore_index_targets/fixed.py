from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


def poly_loss(
    x: Tensor,
    target: Tensor,
    eps: float = 2.0,
    weight: Optional[Tensor] = None,
    ignore_index: int = -100,
    reduction: str = "mean",
) -> Tensor:
    # log(P[class]) = log_softmax(score)[class]
    # Shape (N, K, ...)
    logpt = F.log_softmax(x, dim=1)

    # Ignore index (set loss contribution to 0), ignored targets are replaced by a valid class before gathering
    valid_idxs = target.view(-1) != ignore_index
    target = target.masked_fill(target == ignore_index, 0)
    # Compute pt and logpt only for target classes (the remaining will have a 0 coefficient)
    # Shape (K, N * ...) --> (N * ...)
    logpt = logpt.transpose(1, 0).flatten(1).gather(0, target.view(1, -1)).squeeze(0)

    # Get P(class)
    loss = -1 * logpt + eps * (1 - logpt.exp())

    # Weight
    if weight is not None:
        # Shape (K,) --> (N * ...)
        loss = weight.gather(0, target.view(-1)) * loss

    # Loss reduction
    if reduction == "sum":
        loss = loss[valid_idxs].sum()
    elif reduction == "mean":
        loss = loss[valid_idxs].mean()
    else:
        # if no reduction, reshape tensor like target
        loss = loss.view(*target.shape)

    return loss


class PolyLoss(nn.Module):
    def __init__(self, weight: Optional[Tensor] = None, eps: float = 2.0, ignore_index: int = -100) -> None:
        super().__init__()
        self.weight, self.eps, self.ignore_index = weight, eps, ignore_index

    def forward(self, x: Tensor, target: Tensor) -> Tensor:
        return poly_loss(x, target, self.eps, self.weight, self.ignore_index)


if __name__ == "__main__":
    torch.manual_seed(0)
    # segmentation logits (N, K, H, W) and masks (N, H, W) with an unlabeled border
    logits = torch.randn(2, 5, 8, 8)
    masks = torch.randint(0, 5, (2, 8, 8))
    masks[:, 0, :] = masks[:, -1, :] = -100
    class_weights = torch.tensor([0.5, 1.0, 1.0, 2.0, 1.5])
    loss = PolyLoss(weight=class_weights)(logits, masks)

    terms = []
    for n in range(2):
        for i in range(8):
            for j in range(8):
                k = masks[n, i, j].item()
                if k != -100:
                    logp = F.log_softmax(logits[n, :, i, j], dim=0)[k]
                    terms.append(class_weights[k] * (-logp + 2.0 * (1 - logp.exp())))
    print("poly loss:", round(loss.item(), 5))
    assert torch.allclose(loss, torch.stack(terms).mean())
    print("ok")
