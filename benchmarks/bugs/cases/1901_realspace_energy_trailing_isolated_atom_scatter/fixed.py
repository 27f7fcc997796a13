import math

import torch

FIELD_CONSTANT = 14.399645


def scatter_sum(src, index, dim=-1, dim_size=None):
    if dim_size is None:
        dim_size = int(index.max()) + 1
    out = torch.zeros(dim_size, dtype=src.dtype, device=src.device)
    return out.scatter_add_(dim, index, src)


def batch_complete_graph_excluding_self(batch):
    edges = []
    for g in torch.unique(batch):
        nodes = (batch == g).nonzero().view(-1)  # [D]
        if nodes.numel() <= 1:
            continue
        D = nodes.size(0)
        row = nodes.view(-1, 1).expand(-1, D).reshape(-1)
        col = nodes.view(1, -1).expand(D, -1).reshape(-1)
        keep = row != col
        edges.append(torch.stack([row[keep], col[keep]], dim=0))
    if not edges:
        return torch.empty((2, 0), dtype=torch.long)
    return torch.cat(edges, dim=1)  # [2, N_edges]


def charges_energy_from_graph(charges, positions, edge_index, batch, smearing_width):
    # charges: [n_atoms], positions: [n_atoms, 3], batch: [n_atoms]
    sender, receiver = edge_index
    R_ij = positions[receiver] - positions[sender]  # [N_edges, 3]
    d_ij = torch.linalg.norm(R_ij, dim=-1)  # [N_edges]
    smooth_reciprocal = torch.erf(d_ij * 0.5 / smearing_width) / (d_ij.abs() + 1e-6)
    edge_energy = (0.5 * FIELD_CONSTANT * smooth_reciprocal
                   * charges[sender] * charges[receiver] / (4 * math.pi))  # [N_edges]
    if edge_energy.numel() == 0:
        return torch.zeros(int(batch.max()) + 1, dtype=charges.dtype)
    node_energies = scatter_sum(src=edge_energy, index=receiver, dim=-1,
                                dim_size=charges.shape[0])  # [n_atoms]
    return scatter_sum(src=node_energies, index=batch, dim=-1)  # [n_graphs]


if __name__ == "__main__":
    # graph 0: a water-like triple of charges, graph 1: one isolated ion
    positions = torch.tensor([[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0],
                              [5.0, 5.0, 5.0]])
    charges = torch.tensor([-0.8, 0.4, 0.4, 1.0])
    batch = torch.tensor([0, 0, 0, 1])
    edge_index = batch_complete_graph_excluding_self(batch)
    energy = charges_energy_from_graph(charges, positions, edge_index, batch, 0.5)
    expected = [0.0, 0.0]
    for i in range(4):
        for j in range(4):
            if i != j and batch[i] == batch[j]:
                d = float(torch.linalg.norm(positions[i] - positions[j]))
                e = (0.5 * FIELD_CONSTANT * math.erf(d * 0.5 / 0.5) / (d + 1e-6)
                     * float(charges[i]) * float(charges[j]) / (4 * math.pi))
                expected[int(batch[i])] += e
    assert energy.shape == (2,), energy.shape
    for g in range(2):
        assert abs(float(energy[g]) - expected[g]) < 1e-4, (g, energy, expected)
    print("ok")
