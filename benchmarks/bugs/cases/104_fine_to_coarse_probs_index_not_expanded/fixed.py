import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def coarse_probabilities(
    fine_probs: Float[Tensor, "batch fine"],
    fine_to_coarse: Int[Tensor, " fine"],
    num_coarse: int,
) -> Float[Tensor, "batch coarse"]:
    """Marginalise fine-class probabilities onto their superclasses."""
    index = fine_to_coarse.unsqueeze(0).expand(fine_probs.size(0), -1)
    out = fine_probs.new_zeros(fine_probs.size(0), num_coarse)
    return out.scatter_add_(1, index, fine_probs)


class HierarchicalClassifier(nn.Module):
    def __init__(self, in_dim: int, fine_to_coarse: Int[Tensor, " fine"], num_coarse: int):
        super().__init__()
        self.fc = nn.Linear(in_dim, fine_to_coarse.numel())
        self.register_buffer("fine_to_coarse", fine_to_coarse)
        self.num_coarse = num_coarse

    def forward(
        self, x: Float[Tensor, "batch in_dim"]
    ) -> tuple[Float[Tensor, "batch fine"], Float[Tensor, "batch coarse"]]:
        fine = self.fc(x).softmax(dim=-1)
        return fine, coarse_probabilities(fine, self.fine_to_coarse, self.num_coarse)


def hierarchical_nll(
    coarse: Float[Tensor, "batch coarse"], coarse_labels: Int[Tensor, " batch"]
) -> Float[Tensor, ""]:
    picked = coarse.gather(1, coarse_labels.unsqueeze(1)).squeeze(1)
    return -picked.clamp(min=1e-8).log().mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    fine_to_coarse = torch.arange(12) // 3  # 12 fine classes in 4 superclasses
    model = HierarchicalClassifier(in_dim=10, fine_to_coarse=fine_to_coarse, num_coarse=4)
    x = torch.randn(6, 10)
    fine, coarse = model(x)
    loss = hierarchical_nll(coarse, torch.randint(0, 4, (6,)))
    ref = torch.stack([torch.stack([fine[b, fine_to_coarse == c].sum() for c in range(4)]) for b in range(6)])
    assert torch.allclose(coarse, ref, atol=1e-6)
    assert torch.isfinite(loss)
    print("ok")
