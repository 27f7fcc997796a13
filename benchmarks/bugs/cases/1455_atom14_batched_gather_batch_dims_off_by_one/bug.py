import torch

NUM_RESTYPES = 21  # 20 amino acids + unknown
ATOM37 = 37
ATOM14 = 14


def _build_restype_tables(seed: int = 7):
    """Per residue type: which atom37 slot every atom14 slot reads, and which atom14 slots exist."""
    g = torch.Generator().manual_seed(seed)
    atom14_to_atom37 = torch.zeros(NUM_RESTYPES, ATOM14, dtype=torch.long)
    atom14_mask = torch.zeros(NUM_RESTYPES, ATOM14)
    for rt in range(NUM_RESTYPES):
        n_atoms = 4 + int(torch.randint(0, ATOM14 - 3, (1,), generator=g))
        slots = torch.randperm(ATOM37, generator=g)[:n_atoms]
        atom14_to_atom37[rt, :n_atoms] = slots
        atom14_mask[rt, :n_atoms] = 1.0
    return atom14_to_atom37, atom14_mask


RESTYPE_ATOM14_TO_ATOM37, RESTYPE_ATOM14_MASK = _build_restype_tables()


def batched_gather(data, inds, dim=0, no_batch_dims=0):
    ranges = []
    for i, s in enumerate(data.shape[:no_batch_dims]):
        r = torch.arange(s, device=data.device)
        r = r.view(*((1,) * i), -1, *((1,) * (inds.dim() - i - 1)))
        ranges.append(r)
    remaining = [slice(None)] * (data.dim() - no_batch_dims)
    remaining[dim - no_batch_dims if dim >= 0 else dim] = inds
    ranges.extend(remaining)
    return data[tuple(ranges)]


def get_rc_tensor(table, aatype):
    return table.to(aatype.device)[aatype]


def atom37_to_atom14(aatype, all_atom_pos, all_atom_mask):
    # aatype:        (..., num_res)
    # all_atom_pos:  (..., num_res, 37, 3)
    # all_atom_mask: (..., num_res, 37)
    residx_atom14_to_atom37 = get_rc_tensor(RESTYPE_ATOM14_TO_ATOM37, aatype)  # (..., num_res, 14)
    no_batch_dims = len(aatype.shape)
    atom14_mask = batched_gather(all_atom_mask, residx_atom14_to_atom37, dim=no_batch_dims + 1, no_batch_dims=no_batch_dims + 1)
    atom14_mask = atom14_mask.to(all_atom_pos.dtype) * get_rc_tensor(RESTYPE_ATOM14_MASK, aatype)  # (..., num_res, 14)
    atom14_pos = batched_gather(all_atom_pos, residx_atom14_to_atom37, dim=no_batch_dims + 1, no_batch_dims=no_batch_dims + 1)
    atom14_pos = atom14_mask[..., None] * atom14_pos  # (..., num_res, 14, 3)
    return atom14_pos, atom14_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    batch = {
        "aatype": torch.randint(0, NUM_RESTYPES, (2, 10)),
        "all_atom_positions": torch.randn(2, 10, ATOM37, 3),
        "all_atom_mask": (torch.rand(2, 10, ATOM37) > 0.2).float(),
    }
    pos14, mask14 = atom37_to_atom14(batch["aatype"], batch["all_atom_positions"], batch["all_atom_mask"])
    print(pos14.shape, mask14.shape)
