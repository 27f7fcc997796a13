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
        sums: Float[Tensor, "classes dim"] = torch.zeros_like(self.bank).index_add_(0, labels, feats)
        counts = torch.bincount(labels, minlength=self.bank.shape[0]).to(feats.dtype)
        present = counts > 0
        means = sums[present] / counts[present].unsqueeze(1)
        self.bank[present] = m * self.bank[present] + (1 - m) * means

    def logits(self, feats: Float[Tensor, "batch dim"], tau: float = 0.1) -> Float[Tensor, "batch classes"]:
        return F.normalize(feats, dim=1) @ F.normalize(self.bank, dim=1).t() / tau


if __name__ == "__main__":
    torch.manual_seed(0)
    bank = ClassMemoryBank(num_classes=5, dim=4)
    feats = torch.randn(8, 4)
    labels = torch.tensor([0, 2, 2, 2, 4, 0, 1, 2])
    bank.update(feats, labels)
    for c in range(5):
        rows = [feats[i] for i in range(8) if int(labels[i]) == c]
        if rows:
            expected = (1 - bank.momentum) * (sum(rows) / len(rows))
        else:
            expected = torch.zeros(4)
        assert torch.allclose(bank.bank[c], expected, atol=1e-6)
    print("ok")
