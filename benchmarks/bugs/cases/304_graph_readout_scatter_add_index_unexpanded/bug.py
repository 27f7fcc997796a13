import torch
import torch.nn as nn


class SumReadout(nn.Module):
    """Graph-level readout for a mini-batch of graphs.

    Args:
        node_feats (torch.FloatTensor of shape `(num_nodes, hidden_dim)`):
            Node embeddings of all graphs in the batch, concatenated.
        batch (torch.LongTensor of shape `(num_nodes,)`):
            Graph id of every node.
        num_graphs (int): Number of graphs in the batch.

    Returns:
        torch.FloatTensor of shape `(num_graphs, hidden_dim)`: sum of node embeddings per graph.
    """

    def forward(self, node_feats, batch, num_graphs):
        out = node_feats.new_zeros(num_graphs, node_feats.size(1))
        index = batch.unsqueeze(-1)
        return out.scatter_add_(0, index, node_feats)


class GraphRegressor(nn.Module):
    def __init__(self, in_dim, hidden_dim):
        super().__init__()
        self.encode = nn.Sequential(nn.Linear(in_dim, hidden_dim), nn.ReLU())
        self.readout = SumReadout()
        self.head = nn.Linear(hidden_dim, 1)

    def forward(self, x, batch, num_graphs):
        h = self.encode(x)
        return self.head(self.readout(h, batch, num_graphs)).squeeze(-1)


def main():
    torch.manual_seed(0)
    sizes = [5, 3, 7]
    batch = torch.repeat_interleave(torch.arange(3), torch.tensor(sizes))
    x = torch.randn(sum(sizes), 8)
    model = GraphRegressor(8, 16)
    pooled = model.readout(model.encode(x), batch, 3)
    print("pooled graph 0:", pooled[0, :6].tolist())
    print("nonzero columns:", int((pooled.abs().sum(0) > 0).sum()), "of", pooled.size(1))


if __name__ == "__main__":
    main()
