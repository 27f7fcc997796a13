import torch
import torch.nn as nn


class GATEdgeConv(nn.Module):
    """Graph attention layer that adds bond embeddings to neighbour messages.

    Args:
        emb_dim: node embedding size D.
        heads: number of attention heads H.
        num_bond_type: size of the bond-type vocabulary.
    """

    def __init__(self, emb_dim, heads=2, num_bond_type=4):
        super().__init__()
        self.emb_dim, self.heads = emb_dim, heads
        self.weight_linear = nn.Linear(emb_dim, heads * emb_dim)
        self.edge_embedding = nn.Embedding(num_bond_type, heads * emb_dim)

    def message(self, x_j, edge_attr):
        """x_j: (E, H, D) neighbour features. edge_attr: (E,) bond types.
        Returns messages of shape (E, H * D)."""
        edge_emb = self.edge_embedding(edge_attr).view(-1, self.heads, self.emb_dim)
        return (x_j + edge_emb).reshape(-1, self.heads * self.emb_dim)

    def aggregate(self, messages, dst, num_nodes):
        """messages: (E, H * D); dst: (E,) target node of each edge.
        Returns (num_nodes, H * D) summed messages."""
        out = torch.zeros(num_nodes, self.heads * self.emb_dim)
        index = dst.unsqueeze(-1).expand(-1, self.heads * self.emb_dim)
        return out.scatter_add_(0, index, messages)

    def forward(self, x, edge_index, edge_attr):
        """x: (N, D); edge_index: (2, E); edge_attr: (E,). Returns (N, H * D)."""
        h = self.weight_linear(x).view(-1, self.heads, self.emb_dim)
        src, dst = edge_index
        return self.aggregate(self.message(h[src], edge_attr), dst, x.size(0))


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(6, 8)
    edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5], [1, 0, 2, 1, 4, 3, 0]])
    edge_attr = torch.tensor([0, 0, 1, 1, 2, 2, 3])
    conv = GATEdgeConv(8)
    out = conv(x, edge_index, edge_attr)
    with torch.no_grad():
        h = conv.weight_linear(x)
        ref = torch.zeros(6, 16)
        for e in range(edge_index.size(1)):
            s_, d_ = int(edge_index[0, e]), int(edge_index[1, e])
            ref[d_] += h[s_] + conv.edge_embedding.weight[int(edge_attr[e])]
    assert torch.allclose(out, ref, atol=1e-5)
    print("ok")
