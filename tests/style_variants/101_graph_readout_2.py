import torch
import torch.nn as nn


class MeanFreeReadout(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)

    def forward(self, node_emb, node2graph, n_graphs):
        """
        Args:
            node_emb (torch.FloatTensor of shape (num_nodes, dim)): node embeddings
        """
        h = self.lin(node_emb)
        idx = node2graph.unsqueeze(-1).expand_as(h)
        pooled = h.new_zeros(n_graphs, h.size(1))
        return pooled.scatter_add(dim=1, index=idx, src=h)  # expect: GL019


if __name__ == "__main__":
    model = MeanFreeReadout(8)
    emb = torch.randn(12, 8)
    ids = torch.tensor([0] * 4 + [1] * 5 + [2] * 3)
    try:
        model(emb, ids, 3)
    except RuntimeError:
        pass
    else:
        raise AssertionError("expected a RuntimeError")
