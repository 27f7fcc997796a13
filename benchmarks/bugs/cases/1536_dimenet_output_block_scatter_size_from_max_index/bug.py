import torch
import torch.nn as nn


def radius_edges(pos, batch, cutoff):
    """Directed edges j -> i between atoms of the same structure closer than ``cutoff``.

    Args:
        pos (Tensor): atom positions, shape ``(num_atoms, 3)``.
        batch (LongTensor): structure id of every atom, shape ``(num_atoms,)``.
        cutoff (float): neighbour radius.

    Returns:
        LongTensor: ``edge_index`` of shape ``(2, num_edges)`` holding (source j, target i).
    """
    dist = torch.cdist(pos, pos)
    same = batch.unsqueeze(0) == batch.unsqueeze(1)
    adj = (dist < cutoff) & same & ~torch.eye(pos.size(0), dtype=torch.bool)
    i, j = adj.nonzero(as_tuple=True)
    return torch.stack([j, i])


class OutputBlock(nn.Module):
    """Turns edge messages into per-atom contributions.

    Args:
        x (Tensor): edge messages, shape ``(num_edges, hidden)``.
        rbf (Tensor): radial basis of every edge, shape ``(num_edges, num_radial)``.
        i (LongTensor): target atom of every edge, shape ``(num_edges,)``.
        num_nodes (int, optional): number of atoms in the batch.

    Returns:
        Tensor: per-atom output, shape ``(num_nodes, out_channels)``.
    """

    def __init__(self, num_radial, hidden, out_channels):
        super().__init__()
        self.lin_rbf = nn.Linear(num_radial, hidden, bias=False)
        self.lin = nn.Linear(hidden, out_channels)

    def forward(self, x, rbf, i, num_nodes=None):
        x = self.lin_rbf(rbf) * x
        size = num_nodes if num_nodes is not None else int(i.max()) + 1
        per_atom = x.new_zeros(size, x.size(-1)).index_add_(0, i, x)
        return self.lin(per_atom)


class DimeNetEnergy(nn.Module):
    """Reduced DimeNet-style energy model: edge embeddings, interaction blocks, output blocks.

    Args:
        z (LongTensor): atomic numbers, shape ``(num_atoms,)``.
        pos (Tensor): positions, shape ``(num_atoms, 3)``.
        batch (LongTensor): structure id per atom, shape ``(num_atoms,)``.

    Returns:
        Tensor: energy per structure, shape ``(num_structures, 1)``.
    """

    def __init__(self, hidden=16, num_radial=6, num_blocks=2, cutoff=3.0):
        super().__init__()
        self.cutoff = cutoff
        self.num_radial = num_radial
        self.embedding = nn.Embedding(100, hidden)
        self.edge_lin = nn.Linear(2 * hidden + num_radial, hidden)
        self.interactions = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(num_blocks))
        self.output_blocks = nn.ModuleList(OutputBlock(num_radial, hidden, 1) for _ in range(num_blocks + 1))

    def rbf(self, dist):
        freq = torch.arange(1, self.num_radial + 1, dtype=dist.dtype)
        return torch.sin(freq * torch.pi * dist.unsqueeze(-1) / self.cutoff) / dist.unsqueeze(-1)

    def forward(self, z, pos, batch):
        j, i = radius_edges(pos, batch, self.cutoff)
        dist = (pos[i] - pos[j]).norm(dim=-1)
        rbf = self.rbf(dist)
        h = self.embedding(z)
        x = torch.tanh(self.edge_lin(torch.cat([h[i], h[j], rbf], dim=-1)))

        P = self.output_blocks[0](x, rbf, i, num_nodes=pos.size(0))
        for interaction, output_block in zip(self.interactions, self.output_blocks[1:]):
            x = torch.tanh(interaction(x)) + x
            P = P + output_block(x, rbf, i)

        num_structures = int(batch.max()) + 1
        return P.new_zeros(num_structures, P.size(-1)).index_add_(0, batch, P)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DimeNetEnergy()
    # structure 0: a small molecule; structure 1: a slab whose last atom is an adsorbed ion out of range
    z = torch.tensor([6, 1, 1, 8, 29, 29, 29, 11])
    pos = torch.tensor([[0.0, 0.0, 0.0], [1.1, 0.0, 0.0], [0.0, 1.1, 0.0], [0.0, 0.0, 1.2],
                        [10.0, 0.0, 0.0], [12.0, 0.0, 0.0], [11.0, 1.7, 0.0], [11.0, 0.5, 8.0]])
    batch = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
    energy = model(z, pos, batch)
    print("energy per structure:", energy.squeeze(-1).tolist())
