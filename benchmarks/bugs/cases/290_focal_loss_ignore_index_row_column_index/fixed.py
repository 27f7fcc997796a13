from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor
from torch.nn import functional as F


class FocalLoss(nn.Module):
    """Focal Loss, as described in https://arxiv.org/abs/1708.02002.

    It is essentially an enhancement to cross entropy loss and is useful for classification tasks when there is a
    large class imbalance. x is expected to contain raw, unnormalized scores for each class. y is expected to
    contain class labels.

    Shape:
        - x: (batch_size, C) or (batch_size, C, d1, d2, ..., dK), K > 0.
        - y: (batch_size,) or (batch_size, d1, d2, ..., dK), K > 0.
    """

    def __init__(self, alpha: Optional[Tensor] = None, gamma: float = 0.0, reduction: str = "mean", ignore_index: int = -100):
        """Constructor.

        Args:
            alpha (Tensor, optional): Weights for each class. Defaults to None.
            gamma (float, optional): A constant, as described in the paper. Defaults to 0.
            reduction (str, optional): 'mean', 'sum' or 'none'. Defaults to 'mean'.
            ignore_index (int, optional): class label to ignore. Defaults to -100.
        """
        super().__init__()
        self.gamma = gamma
        self.nll_loss = nn.NLLLoss(weight=alpha, reduction="none", ignore_index=ignore_index)
        self.reduction = reduction
        self.ignore_index = ignore_index

    def forward(self, x: Tensor, y: Tensor) -> Tensor:
        if x.ndim > 2:
            # (N, C, d1, d2, ..., dK) --> (N * d1 * ... * dK, C)
            c = x.shape[1]
            x = x.permute(0, *range(2, x.ndim), 1).reshape(-1, c)
            # (N, d1, d2, ..., dK) --> (N * d1 * ... * dK,)
            y = y.view(-1)

        unignored_mask = y != self.ignore_index
        y = y[unignored_mask]
        if len(y) == 0:
            return torch.tensor(0.0)
        x = x[unignored_mask]

        # compute weighted cross entropy term: -alpha * log(pt)
        log_p = F.log_softmax(x, dim=-1)
        ce = self.nll_loss(log_p, y)

        # get true class column from each row
        all_rows = torch.arange(len(x))
        log_pt = log_p[all_rows, y]

        # compute focal term: (1 - pt)^gamma
        pt = log_pt.exp()
        focal_term = (1 - pt) ** self.gamma

        # the full loss: -alpha * ((1 - pt)^gamma) * log(pt)
        loss = focal_term * ce
        if self.reduction == "mean":
            loss = loss.mean()
        elif self.reduction == "sum":
            loss = loss.sum()
        return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    criterion = FocalLoss(alpha=torch.tensor([0.25, 0.5, 0.25]), gamma=2.0, ignore_index=-100)
    logits = torch.randn(2, 3, 4, 4)
    mask = torch.randint(0, 3, (2, 4, 4))
    mask[:, 0, :] = -100  # unlabeled border rows of the crop
    loss = criterion(logits, mask)
    print("focal loss:", round(loss.item(), 4))
    alpha = [0.25, 0.5, 0.25]
    terms = []
    for n in range(2):
        for i in range(4):
            for j in range(4):
                t = mask[n, i, j].item()
                if t == -100:
                    continue
                log_p = torch.log_softmax(logits[n, :, i, j], dim=0)
                terms.append(-alpha[t] * (1 - log_p[t].exp().item()) ** 2 * log_p[t].item())
    assert abs(loss.item() - sum(terms) / len(terms)) < 1e-5
    print("ok")
