import torch
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor, nn


class ClassMemoryBank(nn.Module):
    """Per-class feature centroids updated with an exponential moving average."""

    def __init__(self, num_classes: int, dim: int, momentum: float = 0.9):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("bank", torch.zeros(num_classes, dim))

    @torch.no_grad()
    def update(self, feats: Float[Tensor, "batch dim"], labels: Int[Tensor, "batch"]) -> None:
        m = self.momentum
        new_rows: Float[Tensor, "batch dim"] = m * self.bank[labels] + (1 - m) * feats
        self.bank.index_copy_(0, labels, new_rows)

    def logits(self, feats: Float[Tensor, "batch dim"], tau: float = 0.1) -> Float[Tensor, "batch classes"]:
        return F.normalize(feats, dim=1) @ F.normalize(self.bank, dim=1).t() / tau


if __name__ == "__main__":
    torch.manual_seed(0)
    bank = ClassMemoryBank(num_classes=5, dim=4)
    feats = torch.randn(8, 4)
    labels = torch.tensor([0, 2, 2, 2, 4, 0, 1, 2])
    bank.update(feats, labels)
    print("bank row 2 after one batch:", [round(v, 4) for v in bank.bank[2].tolist()])
    mean2 = feats[labels == 2].mean(0) * (1 - bank.momentum)
    print("EMA of the class-2 batch mean:", [round(v, 4) for v in mean2.tolist()])
