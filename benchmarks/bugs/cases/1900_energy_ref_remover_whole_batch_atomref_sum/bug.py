import torch


class EnergyRefRemover:
    """Subtract per-atom reference energies from molecular energies.

    Args:
        atomref: (max_z, 1) reference energy of an isolated atom, indexed by
            atomic number.

    Called on a collated batch holding
        z: (num_atoms,) atomic numbers,
        batch: (num_atoms,) index of the molecule each atom belongs to,
        y: (num_molecules, 1) total energy of each molecule.
    Returns the batch with y replaced by (num_molecules, 1) relative energies.
    """

    def __init__(self, atomref):
        self._atomref = atomref

    def __call__(self, data):
        self._atomref = self._atomref.to(data["z"].device)
        if "y" in data:
            data["y"] -= self._atomref[data["z"]].sum()
        return data


def collate(molecules):
    """Concatenate molecules into one batch.

    Each molecule is a dict with z: (n_i,) atomic numbers and energy: float.
    """
    z = torch.cat([m["z"] for m in molecules])
    batch = torch.cat([torch.full((m["z"].numel(),), i, dtype=torch.long)
                       for i, m in enumerate(molecules)])
    y = torch.tensor([[m["energy"]] for m in molecules], dtype=torch.float64)
    return {"z": z, "batch": batch, "y": y}


if __name__ == "__main__":
    atomref = torch.zeros(10, 1, dtype=torch.float64)
    atomref[1] = -13.6
    atomref[6] = -1029.8
    atomref[7] = -1484.3
    atomref[8] = -2041.5
    molecules = [
        {"z": torch.tensor([8, 1, 1]), "energy": -2080.9},
        {"z": torch.tensor([6, 1, 1, 1, 1]), "energy": -1103.2},
        {"z": torch.tensor([7, 1, 1, 1]), "energy": -1535.6},
    ]
    data = EnergyRefRemover(atomref)(collate(molecules))
    print("relative energies:", data["y"].view(-1).tolist())
