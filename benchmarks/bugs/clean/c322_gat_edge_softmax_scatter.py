import torch
import torch.nn as nn


class GATLayer(nn.Module):
    """Single-head graph attention layer.

    Args:
        in_dim (int): input node feature size.
        out_dim (int): output node feature size.

    Forward args:
        x (torch.FloatTensor of shape `(num_nodes, in_dim)`): node features.
        edge_index (torch.LongTensor of shape `(2, num_edges)`): (source, target) pairs.

    Returns:
        torch.FloatTensor of shape `(num_nodes, out_dim)`.
    """

    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.proj = nn.Linear(in_dim, out_dim, bias=False)
        self.att_src = nn.Parameter(torch.randn(out_dim))
        self.att_dst = nn.Parameter(torch.randn(out_dim))

    def forward(self, x, edge_index):
        src, dst = edge_index
        h = self.proj(x)
        logits = torch.nn.functional.leaky_relu((h * self.att_src).sum(-1)[src] + (h * self.att_dst).sum(-1)[dst], 0.2)
        num_nodes = x.size(0)
        node_max = torch.full((num_nodes,), float("-inf")).scatter_reduce(
            0, dst, logits, reduce="amax", include_self=True)
        exp = (logits - node_max.index_select(0, dst)).exp()
        denom = torch.zeros(num_nodes).index_add_(0, dst, exp)
        alpha = exp / denom.gather(0, dst)
        messages = h.index_select(0, src) * alpha.unsqueeze(-1)
        out = torch.zeros(num_nodes, h.size(-1))
        return out.scatter_add_(0, dst.unsqueeze(-1).expand_as(messages), messages)


def main():
    torch.manual_seed(0)
    layer = GATLayer(6, 4)
    x = torch.randn(5, 6)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 0, 2, 1], [1, 1, 1, 0, 0, 4, 4, 3]])
    with torch.no_grad():
        out = layer(x, edge_index)
        h = layer.proj(x)
        e_src = (h * layer.att_src).sum(-1)
        e_dst = (h * layer.att_dst).sum(-1)
    for v in range(5):
        incoming = [s for s, d in edge_index.t().tolist() if d == v]
        ref = torch.zeros(4)
        if incoming:
            scores = torch.tensor([float(torch.nn.functional.leaky_relu(e_src[s] + e_dst[v], 0.2)) for s in incoming])
            weights = torch.softmax(scores, dim=0)
            for w, s in zip(weights, incoming):
                ref += w * h[s]
        assert torch.allclose(out[v], ref, atol=1e-5), v
    print("ok")


if __name__ == "__main__":
    main()
