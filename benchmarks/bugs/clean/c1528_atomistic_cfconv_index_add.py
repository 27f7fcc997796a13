"""SchNet-style continuous-filter convolution on a flat batch of molecules.

Atoms of all molecules are stored in one flat array; `idx_m` says which molecule each atom belongs to
and the neighbour list (`idx_i`, `idx_j`) holds one row per directed atom pair.
"""
from typing import Dict

import torch
from torch import nn


def scatter_add(x: torch.Tensor, idx_i: torch.Tensor, dim_size: int, dim: int = 0) -> torch.Tensor:
    """
    Sum the entries of `x` that share an index.

    Args:
        x: values to reduce, shape [n_pairs, n_features] (dim=0) or any shape with `idx_i` along `dim`
        idx_i: output slot of every entry along `dim`, shape [x.shape[dim]]
        dim_size: number of output slots
        dim: dimension that is reduced

    Returns:
        tensor like `x` with `x.shape[dim]` replaced by `dim_size`
    """
    shape = list(x.shape)
    shape[dim] = dim_size
    out = torch.zeros(shape, dtype=x.dtype, device=x.device)
    return out.index_add(dim, idx_i, x)


class GaussianRBF(nn.Module):
    def __init__(self, n_rbf: int, cutoff: float):
        super().__init__()
        self.register_buffer("centers", torch.linspace(0.0, cutoff, n_rbf))
        self.width = cutoff / n_rbf

    def forward(self, d_ij: torch.Tensor) -> torch.Tensor:
        """d_ij: [n_pairs] -> [n_pairs, n_rbf]"""
        return torch.exp(-((d_ij[:, None] - self.centers[None, :]) ** 2) / (2 * self.width**2))


class CFConv(nn.Module):
    """x_i' = sum_j x_j * W(r_ij) over the neighbours j of atom i."""

    def __init__(self, n_atom_basis: int, n_rbf: int):
        super().__init__()
        self.filter_net = nn.Sequential(nn.Linear(n_rbf, n_atom_basis), nn.Tanh(), nn.Linear(n_atom_basis, n_atom_basis))

    def forward(self, x: torch.Tensor, f_ij: torch.Tensor, idx_i: torch.Tensor, idx_j: torch.Tensor) -> torch.Tensor:
        """
        Args:
            x: atom features, shape [n_atoms, n_atom_basis]
            f_ij: radial basis of each pair, shape [n_pairs, n_rbf]
            idx_i: centre atom of each pair, shape [n_pairs]
            idx_j: neighbour atom of each pair, shape [n_pairs]

        Returns:
            updated atom features, shape [n_atoms, n_atom_basis]
        """
        W_ij = self.filter_net(f_ij)  # [n_pairs, n_atom_basis]
        x_j = torch.index_select(x, 0, idx_j)  # [n_pairs, n_atom_basis]
        return scatter_add(x_j * W_ij, idx_i, dim_size=x.shape[0])


class TinySchNet(nn.Module):
    def __init__(self, n_elements: int = 10, n_atom_basis: int = 16, n_rbf: int = 8, cutoff: float = 4.0):
        super().__init__()
        self.embedding = nn.Embedding(n_elements, n_atom_basis)
        self.rbf = GaussianRBF(n_rbf, cutoff)
        self.conv = CFConv(n_atom_basis, n_rbf)
        self.readout = nn.Linear(n_atom_basis, 1)

    def forward(self, inputs: Dict[str, torch.Tensor]) -> torch.Tensor:
        """
        Args:
            inputs: dict with
                Z: atomic numbers, [n_atoms]
                R: positions, [n_atoms, 3]
                idx_i, idx_j: neighbour list, [n_pairs]
                idx_m: molecule of each atom, [n_atoms]
                n_molecules: python int

        Returns:
            energy per molecule, [n_molecules]
        """
        R, idx_i, idx_j = inputs["R"], inputs["idx_i"], inputs["idx_j"]
        r_ij = R[idx_j] - R[idx_i]  # [n_pairs, 3]
        d_ij = torch.linalg.norm(r_ij, dim=1)  # [n_pairs]
        x = self.embedding(inputs["Z"])  # [n_atoms, n_atom_basis]
        x = x + self.conv(x, self.rbf(d_ij), idx_i, idx_j)
        y_i = self.readout(x).squeeze(-1)  # [n_atoms]
        return scatter_add(y_i, inputs["idx_m"], dim_size=inputs["n_molecules"])


def collate_molecules(molecules, cutoff: float) -> Dict[str, torch.Tensor]:
    """Concatenate molecules and build an all-pairs-within-cutoff neighbour list with atom offsets."""
    Z, R, idx_m, idx_i, idx_j = [], [], [], [], []
    offset = 0
    for m, (z, r) in enumerate(molecules):
        n = z.shape[0]
        d = torch.cdist(r, r)
        i, j = torch.nonzero((d < cutoff) & ~torch.eye(n, dtype=torch.bool), as_tuple=True)
        idx_i.append(i + offset)
        idx_j.append(j + offset)
        Z.append(z)
        R.append(r)
        idx_m.append(torch.full((n,), m, dtype=torch.long))
        offset += n
    return {
        "Z": torch.cat(Z),
        "R": torch.cat(R),
        "idx_i": torch.cat(idx_i),
        "idx_j": torch.cat(idx_j),
        "idx_m": torch.cat(idx_m),
        "n_molecules": len(molecules),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    cutoff = 4.0
    molecules = [(torch.randint(1, 10, (n,)), torch.randn(n, 3) * 1.5) for n in (3, 5, 4)]
    batch = collate_molecules(molecules, cutoff)
    model = TinySchNet(cutoff=cutoff)
    with torch.no_grad():
        energies = model(batch)

        # reference: every molecule on its own, with explicit loops over atom pairs
        ref = []
        for z, r in molecules:
            x = model.embedding(z)
            upd = torch.zeros_like(x)
            for a in range(z.shape[0]):
                for b in range(z.shape[0]):
                    d = float(torch.linalg.norm(r[b] - r[a]))
                    if a != b and d < cutoff:
                        w = model.conv.filter_net(model.rbf(torch.tensor([d])))[0]
                        upd[a] += x[b] * w
            ref.append(float(model.readout(x + upd).sum()))

    assert energies.shape == (3,)
    assert torch.allclose(energies, torch.tensor(ref), atol=1e-4), (energies, ref)
    print("ok")
