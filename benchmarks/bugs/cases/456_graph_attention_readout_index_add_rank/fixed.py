import torch
import torch.nn as nn


class GlobalAttentionReadout(nn.Module):
    """Attention pooling of node embeddings into one vector per graph.

    Args:
        x (Tensor): node features of shape (num_nodes, dim).
        batch (LongTensor): graph id of every node, shape (num_nodes,).
        num_graphs (int): number of graphs in the mini-batch.

    Returns:
        Tensor of shape (num_graphs, dim).
    """

    def __init__(self, dim):
        super().__init__()
        self.gate = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, 1))

    def forward(self, x, batch, num_graphs):
        gate = self.gate(x).squeeze(-1)                       # (num_nodes,)
        gate_max = torch.full((num_graphs,), float("-inf")).scatter_reduce(0, batch, gate, "amax")
        weight = torch.exp(gate - gate_max[batch])            # (num_nodes,)
        denom = torch.zeros(num_graphs, 1).index_add_(0, batch, weight.unsqueeze(-1))
        pooled = torch.zeros(num_graphs, x.size(1)).index_add_(0, batch, weight.unsqueeze(-1) * x)
        return pooled / denom


def collate(graphs):
    xs, batch = [], []
    for gid, g in enumerate(graphs):
        xs.append(g["x"])
        batch.append(torch.full((g["x"].size(0),), gid, dtype=torch.long))
    return torch.cat(xs), torch.cat(batch), len(graphs)


if __name__ == "__main__":
    torch.manual_seed(0)
    graphs = [{"x": torch.randn(n, 32)} for n in (5, 9, 3)]
    x, batch, num_graphs = collate(graphs)
    readout = GlobalAttentionReadout(32)
    out = readout(x, batch, num_graphs)
    with torch.no_grad():
        for gid, g in enumerate(graphs):
            scores = [readout.gate(g["x"][i]).item() for i in range(g["x"].size(0))]
            m = max(scores)
            w = [torch.exp(torch.tensor(s - m)) for s in scores]
            ref = sum(w[i] * g["x"][i] for i in range(len(w))) / sum(w)
            assert torch.allclose(out[gid], ref, atol=1e-5)
    print("ok")
