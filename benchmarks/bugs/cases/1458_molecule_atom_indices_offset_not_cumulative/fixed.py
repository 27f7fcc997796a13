import torch
import torch.nn.functional as F
from jaxtyping import Bool, Float, Int
from torch import Tensor


def lens_to_mask(lens: Int[Tensor, "b"], max_len: int) -> Bool[Tensor, "b m"]:
    return torch.arange(max_len, device=lens.device) < lens[..., None]


def to_global_atom_indices(
    molecule_atom_indices: Int[Tensor, "b n"],
    molecule_atom_lens: Int[Tensor, "b n"],
) -> Int[Tensor, "b n"]:
    # per-token representative atom, given relative to the token's own atoms
    offsets = F.pad(molecule_atom_lens.cumsum(dim=-1), (1, -1), value=0)  # exclusive cumsum
    return molecule_atom_indices + offsets


def representative_atom_positions(
    atom_pos: Float[Tensor, "b m 3"],
    molecule_atom_indices: Int[Tensor, "b n"],
    molecule_atom_lens: Int[Tensor, "b n"],
) -> Float[Tensor, "b n 3"]:
    indices = to_global_atom_indices(molecule_atom_indices, molecule_atom_lens)
    return atom_pos.gather(1, indices[..., None].expand(-1, -1, 3))


def distogram_labels(
    molecule_pos: Float[Tensor, "b n 3"],
    boundaries: Float[Tensor, "d"],
) -> Int[Tensor, "b n n"]:
    dist = torch.cdist(molecule_pos, molecule_pos)
    return torch.bucketize(dist, boundaries)


if __name__ == "__main__":
    torch.manual_seed(0)
    molecule_atom_lens = torch.tensor([[5, 8, 6, 11, 4, 7], [9, 5, 5, 8, 6, 3]])
    # the CA-like representative atom of each residue, relative to that residue
    molecule_atom_indices = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]])
    atom_seq_len = int(molecule_atom_lens.sum(-1).max())
    atom_pos = torch.randn(2, atom_seq_len, 3) * 5.0
    atom_pos = atom_pos * lens_to_mask(molecule_atom_lens.sum(-1), atom_seq_len)[..., None]

    rep_pos = representative_atom_positions(atom_pos, molecule_atom_indices, molecule_atom_lens)
    labels = distogram_labels(rep_pos, torch.linspace(2.0, 22.0, 38))

    for b in range(2):
        start = 0
        for t in range(molecule_atom_lens.shape[1]):
            atom = start + int(molecule_atom_indices[b, t])
            assert torch.equal(rep_pos[b, t], atom_pos[b, atom])
            start += int(molecule_atom_lens[b, t])
    print("ok")
