import torch
import torch.nn as nn


def segment_softmax(logits, dst, num_nodes):
    # logits: [E, H] attention logits, dst: [E] target node of each edge
    index = dst.unsqueeze(-1).expand_as(logits)                     # [E, H]
    seg_max = logits.new_full((num_nodes, logits.shape[1]), float("-inf"))
    seg_max = seg_max.scatter_reduce(0, index, logits, reduce="amax", include_self=False)
    shifted = (logits - seg_max.gather(0, index)).exp()             # [E, H]
    denom = torch.zeros_like(seg_max).scatter_add_(0, index, shifted)
    return shifted / denom.gather(0, index)


class EdgeAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)

    def forward(self, x, edge_index):
        src, dst = edge_index                                           # [E], [E]
        n, h, d = x.shape[0], self.heads, self.head_dim
        q = self.q(x).view(n, h, d).index_select(0, dst)                # [E, H, d]
        k = self.k(x).view(n, h, d).index_select(0, src)                # [E, H, d]
        v = self.v(x).view(n, h, d).index_select(0, src)                # [E, H, d]
        alpha = segment_softmax((q * k).sum(-1) / d ** 0.5, dst, n)     # [E, H]
        out = torch.zeros(n, h, d, dtype=x.dtype)
        out.index_add_(0, dst, alpha.unsqueeze(-1) * v)                 # [N, H, d]
        return out.reshape(n, h * d)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(6, 8)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 5, 1, 2, 5, 0],
                               [1, 1, 1, 2, 2, 3, 4, 4, 4, 5]])
    layer = EdgeAttention(8, 2)
    with torch.no_grad():
        out = layer(x, edge_index)
        q = layer.q(x).view(6, 2, 4)
        k = layer.k(x).view(6, 2, 4)
        v = layer.v(x).view(6, 2, 4)
        for node in range(6):
            incoming = [e for e in range(edge_index.shape[1]) if int(edge_index[1, e]) == node]
            for head in range(2):
                if not incoming:
                    assert torch.all(out[node, head * 4:(head + 1) * 4] == 0)
                    continue
                scores = [float((q[node, head] * k[int(edge_index[0, e]), head]).sum()) / 2.0 for e in incoming]
                m = max(scores)
                w = [pow(2.718281828459045, s - m) for s in scores]
                total = sum(w)
                expected = sum((wi / total) * v[int(edge_index[0, e]), head] for wi, e in zip(w, incoming))
                assert torch.allclose(out[node, head * 4:(head + 1) * 4], expected, atol=1e-5)
    print("ok")
