import torch
import torch.nn as nn
import torch.nn.functional as F

ATOM_TYPES = [1, 6, 7, 8]  # H, C, N, O


def atom_type_index(z):
    # z: [num_atoms] atomic numbers -> [num_atoms] position in ATOM_TYPES
    table = torch.full((max(ATOM_TYPES) + 1,), -1, dtype=torch.long)
    table[torch.tensor(ATOM_TYPES)] = torch.arange(len(ATOM_TYPES))
    return table[z]


class EdgeConv(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.msg = nn.Linear(2 * channels, channels)

    def forward(self, h, edge_index):
        # h: [num_atoms, C], edge_index: [2, num_edges] (source, target)
        src, dst = edge_index
        m = torch.relu(self.msg(torch.cat([h[dst], h[src]], dim=-1)))  # [num_edges, C]
        agg = torch.zeros_like(h).index_add_(0, dst, m)  # [num_atoms, C]
        return h + agg


class MoleculeEnergyModel(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.embed = nn.Linear(len(ATOM_TYPES), channels)
        self.conv = EdgeConv(channels)
        self.atom_energy = nn.Linear(channels, 1)

    def forward(self, z, edge_index, batch, num_graphs):
        # z: [num_atoms], batch: [num_atoms] graph id of every atom
        onehot = F.one_hot(atom_type_index(z), num_classes=len(ATOM_TYPES)).float()
        h = self.conv(self.embed(onehot), edge_index)  # [num_atoms, C]
        e_atom = self.atom_energy(h).squeeze(-1)  # [num_atoms]
        energy = torch.zeros(num_graphs, dtype=e_atom.dtype).index_add_(0, batch, e_atom)
        index = batch.unsqueeze(-1).expand(-1, h.size(1))  # [num_atoms, C]
        pooled = torch.full((num_graphs, h.size(1)), float("-inf")).scatter_reduce(
            0, index, h, reduce="amax", include_self=True)  # [num_graphs, C]
        centered = h - pooled.gather(0, index)  # [num_atoms, C]
        return energy, pooled, centered


if __name__ == "__main__":
    torch.manual_seed(0)
    # water, methane, ammonia and an isolated hydrogen as the last graph
    z = torch.tensor([8, 1, 1, 6, 1, 1, 1, 1, 7, 1, 1, 1, 1])
    batch = torch.tensor([0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3])
    bonds = [(0, 1), (0, 2), (3, 4), (3, 5), (3, 6), (3, 7), (8, 9), (8, 10), (8, 11)]
    edge_index = torch.tensor(bonds + [(b, a) for a, b in bonds]).t()
    model = MoleculeEnergyModel()
    with torch.no_grad():
        energy, pooled, centered = model(z, edge_index, batch, num_graphs=4)

        onehot = torch.zeros(len(z), len(ATOM_TYPES))
        for i, a in enumerate(z.tolist()):
            onehot[i, ATOM_TYPES.index(a)] = 1.0
        h0 = model.embed(onehot)
        h = h0.clone()
        for s, d in edge_index.t().tolist():
            h[d] += torch.relu(model.conv.msg(torch.cat([h0[d], h0[s]])))
        for g in range(4):
            atoms = [i for i in range(len(z)) if int(batch[i]) == g]
            e = sum(float(model.atom_energy(h[i])) for i in atoms)
            assert abs(float(energy[g]) - e) < 1e-5, (g, energy[g], e)
            mx = torch.stack([h[i] for i in atoms]).max(dim=0).values
            assert torch.allclose(pooled[g], mx, atol=1e-6)
            for i in atoms:
                assert torch.allclose(centered[i], h[i] - mx, atol=1e-6)
    print("ok")
