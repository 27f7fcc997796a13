import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def all_pairs_with_loops(pos: Float[Tensor, "atoms 3"], cutoff: float) -> Int[Tensor, "2 edges"]:
    """Lower-triangular neighbour list (i >= j), self loops included, as produced by a brute-force kernel."""
    n = pos.size(0)
    pairs = torch.tril_indices(n, n)
    dist = (pos[pairs[0]] - pos[pairs[1]]).norm(dim=-1)
    return pairs[:, dist < cutoff]


class TensorEmbedding(nn.Module):
    """Per-atom rank-2 tensor features built from unit edge vectors (TensorNet style)."""

    def __init__(self, num_rbf: int = 8, cutoff: float = 3.0):
        super().__init__()
        self.cutoff = cutoff
        self.register_buffer("mu", torch.linspace(0.0, cutoff, num_rbf))
        self.rbf_to_scalar = nn.Linear(num_rbf, 1)

    def unit_edge_vectors(
        self,
        edge_index: Int[Tensor, "2 edges"],
        edge_vec: Float[Tensor, "edges 3"],
        edge_weight: Float[Tensor, "edges"],
    ) -> Float[Tensor, "edges 3"]:
        mask = edge_index[0] != edge_index[1]
        # self loops have zero length: divide them by 1 instead of 0
        safe_weight = torch.masked_scatter(torch.ones_like(edge_weight), mask, edge_weight)
        return edge_vec / safe_weight.unsqueeze(1)

    def forward(self, pos: Float[Tensor, "atoms 3"]) -> Float[Tensor, "atoms 3 3"]:
        edge_index = all_pairs_with_loops(pos, self.cutoff)
        edge_vec = pos[edge_index[0]] - pos[edge_index[1]]
        edge_weight = edge_vec.norm(dim=-1)
        unit = self.unit_edge_vectors(edge_index, edge_vec, edge_weight)
        coeff = self.rbf_to_scalar(torch.exp(-((edge_weight.unsqueeze(1) - self.mu) ** 2)))
        outer = coeff.unsqueeze(-1) * unit.unsqueeze(2) * unit.unsqueeze(1)
        out = torch.zeros(pos.size(0), 3, 3)
        out.index_add_(0, edge_index[0], outer)
        out.index_add_(0, edge_index[1], outer)
        return out


def reference(model: TensorEmbedding, pos: Float[Tensor, "atoms 3"]) -> Float[Tensor, "atoms 3 3"]:
    n = pos.size(0)
    out = torch.zeros(n, 3, 3)
    for i in range(n):
        for j in range(i + 1):
            vec = pos[i] - pos[j]
            w = vec.norm()
            if w >= model.cutoff:
                continue
            unit = vec / w if i != j else vec
            coeff = model.rbf_to_scalar(torch.exp(-((w - model.mu) ** 2)))
            outer = coeff * torch.outer(unit, unit)
            out[i] += outer
            out[j] += outer
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    pos = torch.randn(10, 3) * 1.5
    model = TensorEmbedding()
    with torch.no_grad():
        X = model(pos)
        ref = reference(model, pos)
    print("non-finite entries:", int((~torch.isfinite(X)).sum()), "of", X.numel(), "(loop reference:", int((~torch.isfinite(ref)).sum()), ")")
