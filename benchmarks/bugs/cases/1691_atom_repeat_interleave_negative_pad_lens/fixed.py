import torch
import torch.nn.functional as F
from jaxtyping import Bool, Float, Int
from torch import Tensor


def exclusive_cumsum(t: Int[Tensor, "b n"]) -> Int[Tensor, "b n"]:
    return F.pad(t.cumsum(dim=-1), (1, -1), value=0)


def lens_to_mask(lens: Int[Tensor, "..."], max_len: int | None = None) -> Bool[Tensor, "... m"]:
    max_len = int(lens.amax()) if max_len is None else max_len
    return torch.arange(max_len) < lens.unsqueeze(-1)


def batch_repeat_interleave(
    feats: Float[Tensor, "b n d"],
    lens: Int[Tensor, "b n"],
    output_padding_value: float = 0.0,
) -> Float[Tensor, "b m d"]:
    batch, seq, dim = feats.shape

    mask = lens_to_mask(lens)
    window_size = mask.shape[-1]
    offsets = exclusive_cumsum(lens)
    indices = torch.arange(window_size) + offsets.unsqueeze(-1)

    # create output tensor + a sink position on the very right (index max_len)
    total_lens = lens.clamp(min=0).sum(dim=-1)
    output_mask = lens_to_mask(total_lens)
    max_len = int(total_lens.amax())

    output_indices = torch.zeros((batch, max_len + 1), dtype=torch.long)
    indices = indices.masked_fill(~mask, max_len).reshape(batch, -1)  # scatter to sink position for padding
    seq_arange = torch.arange(seq).repeat_interleave(window_size).expand(batch, -1)
    output_indices = output_indices.scatter(1, indices, seq_arange)[:, :-1]

    output = feats.gather(1, output_indices.unsqueeze(-1).expand(-1, -1, dim))
    return output.masked_fill(~output_mask.unsqueeze(-1), output_padding_value)


def collate_inputs(samples, pad_value=-1):
    max_tokens = max(s["single_repr"].shape[0] for s in samples)
    single = torch.stack([F.pad(s["single_repr"], (0, 0, 0, max_tokens - s["single_repr"].shape[0])) for s in samples])
    lens = torch.stack([F.pad(s["molecule_atom_lens"], (0, max_tokens - len(s["molecule_atom_lens"])), value=pad_value) for s in samples])
    return single, lens


if __name__ == "__main__":
    torch.manual_seed(0)
    ligand = {"single_repr": torch.randn(2, 4), "molecule_atom_lens": torch.tensor([1, 3])}
    peptide = {"single_repr": torch.randn(5, 4), "molecule_atom_lens": torch.tensor([2, 1, 3, 2, 1])}
    single_repr, molecule_atom_lens = collate_inputs([ligand, peptide])
    atom_feats = batch_repeat_interleave(single_repr, molecule_atom_lens)
    rows = []
    for b in range(2):
        atoms = []
        for tok, n in enumerate(molecule_atom_lens[b].tolist()):
            for _ in range(max(n, 0)):
                atoms.append(single_repr[b, tok])
        rows.append(atoms)
    width = max(len(r) for r in rows)
    assert atom_feats.shape == (2, width, 4)
    for b, atoms in enumerate(rows):
        for m in range(width):
            ref = atoms[m] if m < len(atoms) else torch.zeros(4)
            assert torch.equal(atom_feats[b, m], ref), (b, m)
    print("ok")
