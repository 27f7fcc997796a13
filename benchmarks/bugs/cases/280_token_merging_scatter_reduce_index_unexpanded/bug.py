from typing import Callable, Tuple

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def bipartite_soft_matching(metric: Float[Tensor, "batch tokens channels"], r: int) -> Callable:
    """Match the r most similar tokens of the even set to tokens of the odd set and return a merge function."""
    metric = metric / metric.norm(dim=-1, keepdim=True)
    a, b = metric[..., ::2, :], metric[..., 1::2, :]
    scores = a @ b.transpose(-1, -2)
    node_max, node_idx = scores.max(dim=-1)
    edge_idx: Int[Tensor, "batch half 1"] = node_max.argsort(dim=-1, descending=True)[..., None]
    unm_idx = edge_idx[..., r:, :]
    src_idx = edge_idx[..., :r, :]
    dst_idx: Int[Tensor, "batch r 1"] = node_idx[..., None].gather(dim=-2, index=src_idx)

    def merge(x: Float[Tensor, "batch tokens c"], mode: str = "mean") -> Float[Tensor, "batch merged c"]:
        src, dst = x[..., ::2, :], x[..., 1::2, :]
        n, t1, c = src.shape
        unm = src.gather(dim=-2, index=unm_idx.expand(n, t1 - r, c))
        src = src.gather(dim=-2, index=src_idx.expand(n, r, c))
        dst = dst.scatter_reduce(-2, dst_idx, src, reduce=mode)
        return torch.cat([unm, dst], dim=1)

    return merge


def merge_wavg(
    merge: Callable, x: Float[Tensor, "batch tokens channels"], size: Float[Tensor, "batch tokens 1"]
) -> Tuple[Float[Tensor, "batch merged channels"], Float[Tensor, "batch merged 1"]]:
    """Size-weighted average of the merged tokens; size counts the patches each token stands for."""
    x = merge(x * size, mode="sum")
    size = merge(size, mode="sum")
    return x / size, size


class ToMeBlock(nn.Module):
    def __init__(self, dim: int, num_heads: int, r: int):
        super().__init__()
        self.r = r
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, num_heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(
        self, x: Float[Tensor, "batch tokens dim"], size: Float[Tensor, "batch tokens 1"]
    ) -> Tuple[Float[Tensor, "batch merged dim"], Float[Tensor, "batch merged 1"]]:
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        merge = bipartite_soft_matching(x, self.r)
        x, size = merge_wavg(merge, x, size)
        return x + self.mlp(self.norm2(x)), size


def reference_merge(x, size, r):
    """Plain-loop token merging of one block: (merged tokens, sizes) per batch element."""
    out = []
    for xb, sb in zip(x.tolist(), size[..., 0].tolist()):
        a, b = xb[::2], xb[1::2]
        sa, s_b = sb[::2], sb[1::2]
        def cos(u, v):
            return sum(p * q for p, q in zip(u, v)) / (sum(p * p for p in u) ** 0.5 * sum(q * q for q in v) ** 0.5)
        best = [max(range(len(b)), key=lambda j: cos(ai, b[j])) for ai in a]
        best_score = [cos(ai, b[j]) for ai, j in zip(a, best)]
        order = sorted(range(len(a)), key=lambda i: -best_score[i])
        merged_into = {i: best[i] for i in order[:r]}
        dst = [[v * s_b[j] for v in b[j]] for j in range(len(b))]
        dst_size = list(s_b)
        for i, j in merged_into.items():
            dst[j] = [p + q * sa[i] for p, q in zip(dst[j], a[i])]
            dst_size[j] += sa[i]
        tokens = [a[i] for i in order[r:]] + [[v / dst_size[j] for v in dst[j]] for j in range(len(b))]
        sizes = [sa[i] for i in order[r:]] + dst_size
        out.append((tokens, sizes))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(2, 12, 8)
    size = torch.ones(2, 12, 1)
    merge = bipartite_soft_matching(x, r=3)
    merged, merged_size = merge_wavg(merge, x, size)
    expected = reference_merge(x, size, r=3)
    err = max((merged[b] - torch.tensor(expected[b][0])).abs().max().item() for b in range(2))
    print("merged tokens:", tuple(merged.shape), "sizes:", merged_size[0, :, 0].tolist())
    print("max |merged - loop reference|:", round(err, 4))
    block = ToMeBlock(dim=8, num_heads=2, r=3)
    with torch.no_grad():
        y, s = block(x, size)
    print("block output:", tuple(y.shape))
