import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class FocalLoss(nn.Module):
    """Multi-class focal loss for semantic segmentation.

    ignore_index: label value of pixels that do not contribute to the loss.
    """

    def __init__(self, gamma: float = 2.0, ignore_index: int = -1):
        super().__init__()
        self.gamma = gamma
        self.ignore_index = ignore_index

    def forward(
        self,
        logit: Float[Tensor, "batch classes height width"],
        label: Int[Tensor, "batch height width"],
    ) -> Float[Tensor, ""]:
        num_classes = logit.shape[1]
        flat_logit: Float[Tensor, "pixels classes"] = logit.permute(0, 2, 3, 1).reshape(-1, num_classes)
        flat_label: Int[Tensor, "pixels"] = label.reshape(-1)
        valid = flat_label != self.ignore_index
        safe_label = torch.where(valid, flat_label, torch.zeros_like(flat_label))
        log_probs = F.log_softmax(flat_logit, dim=-1)
        logpt: Float[Tensor, "pixels"] = log_probs[torch.arange(flat_label.numel()), safe_label]
        pt = logpt.detach().exp()
        loss = -((1.0 - pt) ** self.gamma) * logpt * valid
        return loss.sum() / valid.sum().clamp_min(1)


def make_batch(seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    logit = torch.randn(2, 4, 6, 6, generator=g)
    label = torch.randint(0, 4, (2, 6, 6), generator=g)
    label[:, 0, :] = -1  # unlabeled border rows
    label[:, :, -1] = -1
    return logit, label


def reference_focal(logit, label, gamma, ignore_index):
    import math
    total, count = 0.0, 0
    b, c, h, w = logit.shape
    for n in range(b):
        for i in range(h):
            for j in range(w):
                y = int(label[n, i, j])
                if y == ignore_index:
                    continue
                scores = [float(logit[n, k, i, j]) for k in range(c)]
                m = max(scores)
                lse = m + math.log(sum(math.exp(v - m) for v in scores))
                lp = scores[y] - lse
                total += -((1.0 - math.exp(lp)) ** gamma) * lp
                count += 1
    return total / count


if __name__ == "__main__":
    logit, label = make_batch()
    criterion = FocalLoss(gamma=2.0, ignore_index=-1)
    got = criterion(logit, label).item()
    ref = reference_focal(logit, label, 2.0, -1)
    assert abs(got - ref) < 1e-5, (got, ref)
    print("ok")
