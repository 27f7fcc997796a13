import torch
import torch.nn as nn

SETTINGS = {"species": ["H", "C", "N", "O"], "aev_dim": 12, "hidden": 16}


class AtomicNetworks(nn.Module):
    def __init__(self, settings):
        super().__init__()
        self.nets = nn.ModuleList(
            nn.Sequential(nn.Linear(settings["aev_dim"], settings["hidden"]), nn.CELU(0.1), nn.Linear(settings["hidden"], 1))
            for _ in settings["species"]
        )

    def forward(self, species, aevs):
        out = aevs.new_zeros(species.shape[0])
        for i, net in enumerate(self.nets):
            mask = species == i
            if mask.any():
                out[mask] = net(aevs[mask]).squeeze(-1)
        return out


def molecular_energies(model, species, aevs, molecule_index, num_molecules):
    atomic = model(species, aevs)
    energies = aevs.new_zeros(num_molecules)
    energies[molecule_index] += atomic
    return energies


def make_flat_batch(atoms_per_molecule, settings, seed=0):
    g = torch.Generator().manual_seed(seed)
    molecule_index = torch.repeat_interleave(torch.arange(len(atoms_per_molecule)), torch.tensor(atoms_per_molecule))
    species = torch.randint(0, len(settings["species"]), (len(molecule_index),), generator=g)
    aevs = torch.randn(len(molecule_index), settings["aev_dim"], generator=g)
    return species, aevs, molecule_index


if __name__ == "__main__":
    torch.manual_seed(0)
    model = AtomicNetworks(SETTINGS)
    species, aevs, molecule_index = make_flat_batch([3, 5, 2], SETTINGS)
    with torch.no_grad():
        energies = molecular_energies(model, species, aevs, molecule_index, 3)
        atomic = model(species, aevs)
        ref = [atomic[molecule_index == m].sum().item() for m in range(3)]
    print("molecular energies:", energies.tolist())
    print("sum of atomic energies:", ref)
