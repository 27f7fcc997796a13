"""ANI-style per-element atomic energy readout (modelforge-style ANI2x interaction block)."""
from typing import NamedTuple

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor

ATOMIC_NUMBER_TO_INDEX_MAP = {1: 0, 6: 1, 7: 2, 8: 3, 16: 4, 9: 5, 17: 6}  # H C N O S F Cl


class SpeciesAEV(NamedTuple):
    species: Int[Tensor, " n_atoms"]  # element index in [0, num_species)
    aevs: Float[Tensor, "n_atoms aev_dim"]


class ANIRepresentation(nn.Module):
    def __init__(self):
        super().__init__()
        lookup = torch.full((max(ATOMIC_NUMBER_TO_INDEX_MAP) + 1,), -1, dtype=torch.long)
        for z, idx in ATOMIC_NUMBER_TO_INDEX_MAP.items():
            lookup[z] = idx
        self.register_buffer("lookup_tensor", lookup)

    def forward(self, atomic_numbers: Int[Tensor, " n_atoms"], aevs: Float[Tensor, "n_atoms aev_dim"]) -> SpeciesAEV:
        atom_index = self.lookup_tensor[atomic_numbers]
        return SpeciesAEV(atom_index, aevs)


class ANIInteraction(nn.Module):
    def __init__(self, aev_dim: int, num_species: int = 7):
        super().__init__()
        self.atomic_networks = nn.ModuleList(
            [nn.Sequential(nn.Linear(aev_dim, 16), nn.CELU(0.1), nn.Linear(16, 1)) for _ in range(num_species)]
        )

    def forward(self, species_aev: SpeciesAEV) -> Float[Tensor, " n_atoms"]:
        species, aev = species_aev
        output = aev.new_zeros(species.shape)
        for i, model in enumerate(self.atomic_networks):
            mask = species == i
            midx = mask.nonzero().flatten()
            if midx.shape[0] > 0:
                input_ = aev.index_select(0, midx)
                output.masked_scatter_(mask, model(input_).flatten())
        return output


if __name__ == "__main__":
    torch.manual_seed(0)
    aev_dim = 8
    atomic_numbers = torch.tensor([6, 1, 1, 1, 8, 7, 1, 16, 9, 17, 6, 1])
    aevs = torch.randn(len(atomic_numbers), aev_dim)
    representation, interaction = ANIRepresentation(), ANIInteraction(aev_dim)
    with torch.no_grad():
        atomic_energies = interaction(representation(atomic_numbers, aevs))
    for a, z in enumerate(atomic_numbers.tolist()):
        net = interaction.atomic_networks[ATOMIC_NUMBER_TO_INDEX_MAP[z]]
        with torch.no_grad():
            ref = net(aevs[a]).squeeze()
        assert torch.allclose(atomic_energies[a], ref, atol=1e-6)
    print("ok")
