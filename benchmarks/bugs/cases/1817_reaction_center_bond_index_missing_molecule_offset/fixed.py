import torch
import torch.nn as nn


class BondChangePredictor(nn.Module):
    def __init__(self, hidden_size, n_bond_types):
        super().__init__()
        self.W_bc = nn.Sequential(nn.Linear(hidden_size * 2, hidden_size), nn.ReLU(),
                                  nn.Linear(hidden_size, n_bond_types))

    def forward(self, bond_vecs, mol_vecs, bond_idx, cand_mol, bond_scope):
        # bond_vecs:  [total_bonds, H]  bonds of every product in the batch, concatenated
        # mol_vecs:   [n_mols, H]
        # bond_idx:   [n_cands]  index of the candidate center bond inside its own molecule
        # cand_mol:   [n_cands]  molecule each candidate belongs to
        # bond_scope: [n_mols, 2]  (start, n_bonds) of each molecule inside bond_vecs
        cand_offset = bond_scope[cand_mol, 0]                       # [n_cands]
        center_vecs = bond_vecs.index_select(0, bond_idx + cand_offset)         # [n_cands, H]
        feats = torch.cat([center_vecs, mol_vecs[cand_mol]], dim=-1)  # [n_cands, 2H]
        return self.W_bc(feats)                                     # [n_cands, n_bond_types]


def batch_products(bond_counts, hidden_size):
    # concatenate per-molecule bond encodings the way the graph encoder returns them
    bond_vecs = torch.cat([torch.randn(n, hidden_size) for n in bond_counts])  # [total_bonds, H]
    starts = torch.tensor([0] + bond_counts[:-1]).cumsum(0)
    bond_scope = torch.stack([starts, torch.tensor(bond_counts)], dim=1)       # [n_mols, 2]
    mol_vecs = torch.randn(len(bond_counts), hidden_size)                      # [n_mols, H]
    return bond_vecs, mol_vecs, bond_scope


if __name__ == "__main__":
    torch.manual_seed(0)
    bond_counts = [7, 11, 5, 9]
    bond_vecs, mol_vecs, bond_scope = batch_products(bond_counts, 32)
    cand_mol = torch.tensor([0, 0, 1, 1, 1, 2, 3, 3])
    bond_idx = torch.tensor([int(torch.randint(0, bond_counts[m], (1,))) for m in cand_mol])
    model = BondChangePredictor(32, 4)
    with torch.no_grad():
        scores = model(bond_vecs, mol_vecs, bond_idx, cand_mol, bond_scope)
        ref = torch.stack([
            model.W_bc(torch.cat([bond_vecs[int(bond_scope[m, 0]) + int(b)], mol_vecs[m]]))
            for b, m in zip(bond_idx.tolist(), cand_mol.tolist())])
    assert torch.allclose(scores, ref, atol=1e-5)
    print("ok")
