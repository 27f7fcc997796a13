import torch
from torch import nn


def scatter(src, index, dim=0, dim_size=None, reduce="sum"):
    """Sum ``src`` rows that share an ``index`` (torch_scatter semantics).

    src: [E], index: [E] -> out: [dim_size or index.max() + 1]
    """
    if dim_size is None:
        dim_size = int(index.max()) + 1
    out = src.new_zeros(dim_size)
    return out.scatter_add_(dim, index, src)


class Distance(nn.Module):
    """All ordered atom pairs of the same molecule closer than ``cutoff_upper``.

    Returns edge_index [2, E] and distance [E].
    """

    def __init__(self, cutoff_lower, cutoff_upper):
        super().__init__()
        self.cutoff_lower = cutoff_lower
        self.cutoff_upper = cutoff_upper

    def forward(self, pos, batch):
        dist = torch.cdist(pos, pos)
        same_mol = batch.unsqueeze(0) == batch.unsqueeze(1)
        not_self = ~torch.eye(pos.shape[0], dtype=torch.bool)
        mask = same_mol & not_self & (dist < self.cutoff_upper) & (dist >= self.cutoff_lower)
        edge_index = mask.nonzero().t()
        return edge_index, dist[edge_index[0], edge_index[1]]


class Coulomb(nn.Module):
    """Coulomb potential scaled by erf(alpha*r) to reduce its effect at short distances.

    The dataset must provide ``partial_charges`` with each sample, a tensor of shape
    [num_atoms], plus ``distance_scale`` (factor from stored coordinates to meters) and
    ``energy_scale`` (factor from stored energies to Joules).
    """

    def __init__(self, alpha, distance_scale, energy_scale):
        super().__init__()
        self.distance = Distance(0, float("inf"))
        self.alpha = alpha
        self.distance_scale = distance_scale
        self.energy_scale = energy_scale

    def post_reduce(self, y, z, pos, batch, extra_args):
        """Add the prior energy to the per-molecule prediction.

        Args:
            y: predicted energies, shape [num_molecules, 1]
            z: atom types, shape [num_atoms]
            pos: coordinates, shape [num_atoms, 3]
            batch: molecule index of every atom, shape [num_atoms]
        Returns:
            energies with the prior added, shape [num_molecules, 1]
        """
        # Convert to nm and calculate distance.
        x = 1e9 * self.distance_scale * pos
        alpha = self.alpha / (1e9 * self.distance_scale)
        edge_index, distance = self.distance(x, batch)

        # Compute the energy, converting to the dataset's units.  Multiply by 0.5 because every atom pair
        # appears twice.
        q = extra_args['partial_charges'][edge_index]
        energy = torch.erf(alpha * distance) * q[0] * q[1] / distance
        return y + 0.5 * (2.30707e-28 / self.energy_scale / self.distance_scale) * scatter(energy, batch[edge_index[0]], dim=0, reduce="sum")


if __name__ == "__main__":
    torch.manual_seed(0)
    prior = Coulomb(alpha=1.8, distance_scale=1e-10, energy_scale=1.602176634e-19)
    atoms_per_mol = [3, 5, 4]
    batch = torch.repeat_interleave(torch.arange(len(atoms_per_mol)), torch.tensor(atoms_per_mol))
    z = torch.randint(1, 10, (batch.shape[0],))
    pos = torch.randn(batch.shape[0], 3) * 1.5
    charges = torch.randn(batch.shape[0]) * 0.4
    y = torch.randn(len(atoms_per_mol), 1)  # output of the atom-wise readout
    energy = prior.post_reduce(y, z, pos, batch, {'partial_charges': charges})
    print("prediction shape:", tuple(y.shape), "after prior:", tuple(energy.shape))
    print(energy)
