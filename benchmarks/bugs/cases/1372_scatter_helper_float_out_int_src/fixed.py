from typing import Optional

import torch
import torch.nn as nn


def _broadcast(src: torch.Tensor, other: torch.Tensor, dim: int) -> torch.Tensor:
    if dim < 0:
        dim = other.dim() + dim
    if src.dim() == 1:
        for _ in range(0, dim):
            src = src.unsqueeze(0)
    for _ in range(src.dim(), other.dim()):
        src = src.unsqueeze(-1)
    return src.expand_as(other)


def scatter(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
            out: Optional[torch.Tensor] = None, dim_size: Optional[int] = None) -> torch.Tensor:
    index = _broadcast(index, src, dim)
    if out is None:
        size = list(src.size())
        if dim_size is not None:
            size[dim] = dim_size
        elif index.numel() == 0:
            size[dim] = 0
        else:
            size[dim] = int(index.max()) + 1
        acc_dtype = src.dtype if src.dtype in (torch.float32, torch.float64) else torch.float32
        out = torch.zeros(size, dtype=acc_dtype, device=src.device)
        return out.scatter_add_(dim, index, src.to(out.dtype))
    return out.scatter_add_(dim, index, src)


class PerGraphEnergy(nn.Module):
    """Sums per-atom energies into per-graph energies and reports the per-atom average."""

    def __init__(self, num_types: int):
        super().__init__()
        self.atom_energy = nn.Sequential(nn.Embedding(num_types, 8), nn.SiLU(), nn.Linear(8, 1))

    def forward(self, atom_types: torch.Tensor, batch: torch.Tensor, num_graphs: int):
        e_atom = self.atom_energy(atom_types).squeeze(-1)
        total = scatter(e_atom, batch, dim=0, dim_size=num_graphs)
        n_atoms = scatter(torch.ones_like(batch), batch, dim=0, dim_size=num_graphs)
        return total, total / n_atoms


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PerGraphEnergy(num_types=4)
    atom_types = torch.randint(0, 4, (23,))
    batch = torch.tensor([0] * 7 + [1] * 9 + [2] * 7)
    with torch.no_grad():
        total, per_atom = model(atom_types, batch, num_graphs=3)
        e_atom = model.atom_energy(atom_types).squeeze(-1)
    ref_total = [0.0, 0.0, 0.0]
    ref_count = [0, 0, 0]
    for i in range(atom_types.numel()):
        ref_total[int(batch[i])] += float(e_atom[i])
        ref_count[int(batch[i])] += 1
    for g in range(3):
        assert abs(float(total[g]) - ref_total[g]) < 1e-5
        assert abs(float(per_atom[g]) - ref_total[g] / ref_count[g]) < 1e-5
    print("ok")
