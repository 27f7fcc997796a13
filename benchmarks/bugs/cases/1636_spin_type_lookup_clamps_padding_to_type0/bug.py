import torch
import torch.nn as nn


def _lookup_type_values(values: torch.Tensor, atype: torch.Tensor) -> torch.Tensor:
    """Gather one scalar value per atom type.

    ``index_select`` rejects negative indices, so padding slots (``atype == -1``)
    are clamped to row 0.

    Parameters
    ----------
    values : torch.Tensor
        Per-type values with shape (ntypes,).
    atype : torch.Tensor
        Atom types with shape (nframes, nloc); -1 marks a padding slot.

    Returns
    -------
    torch.Tensor
        Values with the shape of ``atype``.
    """
    flat_atype = torch.clamp_min(atype.reshape(-1).to(dtype=torch.long), 0)
    return torch.index_select(values.to(atype.device), 0, flat_atype).view(atype.shape)


class SpinPreprocess(nn.Module):
    """Adds a virtual atom displaced by ``spin * virtual_scale`` for every magnetic atom.

    Parameters
    ----------
    virtual_scale : list of float
        Spin-to-displacement scale of each real type; 0 for non-magnetic types.
    """

    def __init__(self, virtual_scale):
        super().__init__()
        scale = torch.tensor(virtual_scale)
        self.ntypes_real = len(virtual_scale)
        self.register_buffer("virtual_scale_mask", scale)
        self.register_buffer("magnetic_mask", (scale != 0).to(scale.dtype))

    def forward(self, coord, atype, spin):
        """
        Parameters
        ----------
        coord : torch.Tensor
            (nframes, nloc, 3) coordinates.
        atype : torch.Tensor
            (nframes, nloc) types, -1 for padding.
        spin : torch.Tensor
            (nframes, nloc, 3) spins.

        Returns
        -------
        coord_spin : torch.Tensor
            (nframes, 2 * nloc, 3) real then virtual coordinates.
        magnetic_moment : torch.Tensor
            (nframes,) total spin magnitude of the magnetic atoms.
        """
        nframes, nloc = atype.shape
        spin_dist = spin * _lookup_type_values(self.virtual_scale_mask, atype).reshape(nframes, nloc, 1)
        coord_spin = torch.cat([coord, coord + spin_dist], dim=-2)
        mask = _lookup_type_values(self.magnetic_mask, atype)
        magnetic_moment = (spin.norm(dim=-1) * mask).sum(dim=-1)
        return coord_spin, magnetic_moment


def pad_frames(frames, nloc):
    """frames: list of (types, coords, spins); padding slots keep the spin the reader filled in."""
    atype = torch.full((len(frames), nloc), -1, dtype=torch.long)
    coord = torch.zeros(len(frames), nloc, 3)
    spin = torch.full((len(frames), nloc, 3), 0.5)  # reader default for padding slots
    for f, (t, c, s) in enumerate(frames):
        atype[f, : len(t)] = torch.tensor(t)
        coord[f, : len(t)] = c
        spin[f, : len(t)] = s
    return coord, atype, spin


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    # type 0 = Fe (magnetic), type 1 = O
    prep = SpinPreprocess([0.3, 0.0])
    frames = [
        ([0, 0, 1, 1], torch.rand(4, 3, generator=g), torch.randn(4, 3, generator=g)),
        ([0, 1], torch.rand(2, 3, generator=g), torch.randn(2, 3, generator=g)),
    ]
    coord, atype, spin = pad_frames(frames, nloc=4)
    coord_spin, moment = prep(coord, atype, spin)

    ref_moment = []
    max_shift = 0.0
    for f, (t, c, s) in enumerate(frames):
        ref_moment.append(sum(s[i].norm().item() for i in range(len(t)) if t[i] == 0))
        for i in range(4):
            expected = coord[f, i] + (s[i] * 0.3 if i < len(t) and t[i] == 0 else 0.0)
            max_shift = max(max_shift, (coord_spin[f, 4 + i] - expected).abs().max().item())
    print("magnetic moment:", moment.tolist(), "reference:", ref_moment)
    print("largest virtual-atom displacement error:", max_shift)
