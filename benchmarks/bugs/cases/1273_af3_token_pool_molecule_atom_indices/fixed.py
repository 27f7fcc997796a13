import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def pool_token_center_atoms(
    atom_feats: Float[Tensor, "batch atoms dim"],
    atom_index_per_token: Int[Tensor, "batch tokens"],
) -> Float[Tensor, "batch tokens dim"]:
    index = atom_index_per_token.unsqueeze(-1).expand(-1, -1, atom_feats.shape[-1])
    return atom_feats.gather(1, index)


class ConfidenceHeadInputs(nn.Module):
    def __init__(self, dim_atom: int, dim_single: int):
        super().__init__()
        self.to_single = nn.Linear(dim_atom, dim_single)

    def forward(
        self,
        atom_feats: Float[Tensor, "batch atoms dim_atom"],
        molecule_atom_indices: Int[Tensor, "batch tokens"],
        token_center_atom_indices: Int[Tensor, "batch tokens"],
    ) -> Float[Tensor, "batch tokens dim_single"]:
        token_atoms = pool_token_center_atoms(atom_feats, token_center_atom_indices)
        return self.to_single(token_atoms)


def make_indices(atoms_per_token: list[list[int]]):
    """Per batch item: list of atom counts per token; a token is one residue / one ligand atom."""
    center, molecule = [], []
    for counts in atoms_per_token:
        offsets = torch.tensor([0] + counts[:-1]).cumsum(0)
        center.append(offsets + torch.tensor(counts) // 2)
        mol = torch.zeros(len(counts), dtype=torch.long)
        mol[0] = offsets[0] + counts[0] // 2  # one representative atom for the whole chain, rest padded
        molecule.append(mol)
    return torch.stack(molecule), torch.stack(center)


if __name__ == "__main__":
    torch.manual_seed(0)
    atoms_per_token = [[3, 4, 2, 3], [2, 2, 5, 3]]
    molecule_atom_indices, token_center_atom_indices = make_indices(atoms_per_token)
    atom_feats = torch.randn(2, 12, 8)
    head = ConfidenceHeadInputs(dim_atom=8, dim_single=6)
    single = head(atom_feats, molecule_atom_indices, token_center_atom_indices)
    for b in range(2):
        for k in range(4):
            a = int(token_center_atom_indices[b, k])
            ref = head.to_single(atom_feats[b, a])
            assert torch.allclose(single[b, k], ref, atol=1e-6), (b, k)
    print("ok")
