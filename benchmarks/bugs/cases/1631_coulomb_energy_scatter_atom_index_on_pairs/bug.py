import torch
import torch.nn as nn


class PhysNetAttenuation(nn.Module):
    """Smooth switch that goes from 1 at d=0 to 0 at d=cutoff."""

    def __init__(self, cutoff: float):
        super().__init__()
        self.cutoff = cutoff

    def forward(self, d: torch.Tensor) -> torch.Tensor:
        x = (d / self.cutoff).clamp(max=1.0)
        return 1 - 6 * x**5 + 15 * x**4 - 10 * x**3


class CoulombPotential(nn.Module):
    """Long-range electrostatic energy from predicted partial charges (PhysNet style).

    Parameters
    ----------
    cutoff : float
        Distance (nm) below which the 1/r interaction is damped.
    """

    def __init__(self, cutoff: float = 0.5):
        super().__init__()
        self.cutoff_function = PhysNetAttenuation(cutoff)

    def forward(self, data):
        """
        Parameters
        ----------
        data : Dict[str, torch.Tensor]
            - 'per_atom_charge': (N, 1) partial charge of every atom.
            - 'atomic_subsystem_indices': (N,) molecule each atom belongs to.
            - 'pair_indices': (2, P) neighbour pairs, both directions.
            - 'd_ij': (P, 1) pair distances.
            - 'per_system_energy': (M, 1) energy predicted for each molecule.

        Returns
        -------
        Dict[str, torch.Tensor]
            ``data`` with 'electrostatic_energy' of shape (M, 1) in kJ/mol.
        """
        mol_indices = data["atomic_subsystem_indices"]
        idx_i, idx_j = data["pair_indices"]

        # only unique pairs
        unique_pairs_mask = idx_i < idx_j
        idx_i = idx_i[unique_pairs_mask]
        idx_j = idx_j[unique_pairs_mask]
        pairwise_distances = data["d_ij"][unique_pairs_mask]
        per_atom_charge = data["per_atom_charge"]

        electrostatic_energy = torch.zeros_like(data["per_system_energy"])

        phi_2r = self.cutoff_function(2 * pairwise_distances)
        chi_r = phi_2r / torch.sqrt(pairwise_distances**2 + 1) + (1 - phi_2r) / pairwise_distances
        coulomb_interactions = per_atom_charge[idx_i] * per_atom_charge[idx_j] * chi_r

        # sum over all interactions of each molecule
        data["electrostatic_energy"] = (
            electrostatic_energy.scatter_add_(0, mol_indices.long().unsqueeze(1), coulomb_interactions)
            * 138.96
        )
        return data


def make_batch(atoms_per_molecule, seed=0):
    g = torch.Generator().manual_seed(seed)
    mol = torch.cat([torch.full((n,), m) for m, n in enumerate(atoms_per_molecule)])
    pos = torch.rand(len(mol), 3, generator=g) * 0.8
    charge = torch.randn(len(mol), 1, generator=g) * 0.3
    pairs = [(i, j) for i in range(len(mol)) for j in range(len(mol)) if i != j and mol[i] == mol[j]]
    pair_indices = torch.tensor(pairs).t()
    d_ij = (pos[pair_indices[0]] - pos[pair_indices[1]]).norm(dim=-1, keepdim=True)
    return {
        "per_atom_charge": charge,
        "atomic_subsystem_indices": mol,
        "pair_indices": pair_indices,
        "d_ij": d_ij,
        "per_system_energy": torch.zeros(len(atoms_per_molecule), 1),
    }


if __name__ == "__main__":
    data = make_batch([4, 5, 3])
    module = CoulombPotential(cutoff=0.5)
    out = module(dict(data))["electrostatic_energy"]

    ref = torch.zeros(3, 1)
    mol, q = data["atomic_subsystem_indices"], data["per_atom_charge"]
    for k in range(data["pair_indices"].size(1)):
        i, j = data["pair_indices"][:, k].tolist()
        if i < j:
            d = data["d_ij"][k]
            phi = module.cutoff_function(2 * d)
            chi = phi / torch.sqrt(d**2 + 1) + (1 - phi) / d
            ref[mol[i]] += q[i] * q[j] * chi * 138.96
    print("electrostatic energy:", out.flatten().tolist())
    print("per-pair reference:  ", ref.flatten().tolist())
