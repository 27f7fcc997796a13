import torch
from jaxtyping import Float, Int
from torch import Tensor


def exclusive_cumsum(t: Int[Tensor, " n"]) -> Int[Tensor, " n"]:
    return t.cumsum(dim=-1) - t


def molecule_input_to_atom_input(
    atoms_per_molecule: Int[Tensor, " n"],
    atom_indices_for_frame: Int[Tensor, "n 3"],
) -> Int[Tensor, "n 3"]:
    """Per-token (N, CA, C)-style frame atoms, given as offsets inside each molecule."""
    atom_indices_offsets = exclusive_cumsum(atoms_per_molecule)
    valid = (atom_indices_for_frame >= 0).all(dim=-1, keepdim=True)
    return torch.where(valid, atom_indices_for_frame, -1)


def frame_atom_positions(
    atom_pos: Float[Tensor, "b m 3"],
    atom_indices_for_frame: Int[Tensor, "b n 3"],
) -> Float[Tensor, "3 b n 3"]:
    b, n, _ = atom_indices_for_frame.shape
    index = atom_indices_for_frame.clamp(min=0).permute(2, 0, 1)[..., None].expand(3, b, n, 3)
    three_atom_pos = atom_pos[None].expand(3, -1, -1, -1)
    return three_atom_pos.gather(2, index)


def frames_from_atoms(three_atoms: Float[Tensor, "3 b n 3"]) -> Float[Tensor, "b n 3 3"]:
    a, origin, c = three_atoms
    e1 = torch.nn.functional.normalize(a - origin, dim=-1)
    u2 = c - origin
    e2 = torch.nn.functional.normalize(u2 - (u2 * e1).sum(-1, keepdim=True) * e1, dim=-1)
    return torch.stack((e1, e2, torch.cross(e1, e2, dim=-1)), dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    atoms_per_molecule = torch.tensor([5, 4, 6, 5])
    local_frame_atoms = torch.tensor([[0, 1, 2], [0, 1, 3], [1, 2, 4], [0, 2, 3]])
    atom_indices_for_frame = molecule_input_to_atom_input(atoms_per_molecule, local_frame_atoms)[None]
    atom_pos = torch.randn(1, int(atoms_per_molecule.sum()), 3) * 3.0

    three_atoms = frame_atom_positions(atom_pos, atom_indices_for_frame)
    frames = frames_from_atoms(three_atoms)

    ref_origin = torch.empty(1, 4, 3)
    start = 0
    for i in range(4):
        ref_origin[0, i] = atom_pos[0, start + local_frame_atoms[i, 1].item()]
        start += atoms_per_molecule[i].item()
    print("max |frame origin - ref|:", round((three_atoms[1] - ref_origin).abs().max().item(), 4))
