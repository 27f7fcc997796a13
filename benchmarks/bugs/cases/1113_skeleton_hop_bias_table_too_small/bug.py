from dataclasses import dataclass

import torch
import torch.nn as nn

MAX_PATH_LEN = 6


def hop_distances(parents, max_path_len=MAX_PATH_LEN):
    """Pairwise hop distance on a kinematic tree, clipped to ``max_path_len``.

    Args:
        parents: list of length J with the parent of each joint (-1 for the root).
    Returns:
        LongTensor of shape (J, J) with values in [0, max_path_len].
    """
    n = len(parents)
    nbrs = [[] for _ in range(n)]
    for j, p in enumerate(parents):
        if p >= 0:
            nbrs[j].append(p)
            nbrs[p].append(j)
    dist = torch.full((n, n), max_path_len, dtype=torch.long)
    for s in range(n):
        depth, frontier = {s: 0}, [s]
        while frontier:
            nxt = []
            for u in frontier:
                for v in nbrs[u]:
                    if v not in depth:
                        depth[v] = depth[u] + 1
                        nxt.append(v)
            frontier = nxt
        for t, d in depth.items():
            dist[s, t] = min(d, max_path_len)
    return dist


@dataclass
class SkeletonAttnConfig:
    d_model: int = 32
    nheads: int = 4
    num_hop_types: int = 6


class HopBiasedAttention(nn.Module):
    """Self-attention over joints with a learned query/hop-distance bias.

    Args:
        x: joint features of shape (batch, joints, d_model).
        hops: hop distances of shape (batch, joints, joints).
    Returns:
        Tensor of shape (batch, joints, d_model).
    """

    def __init__(self, cfg: SkeletonAttnConfig):
        super().__init__()
        self.h, self.dk = cfg.nheads, cfg.d_model // cfg.nheads
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.hop_emb = nn.Parameter(torch.randn(cfg.num_hop_types, cfg.d_model) * 0.02)

    def forward(self, x, hops):
        b, j, _ = x.shape
        q, k, v = self.qkv(x).view(b, j, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
        hop = self.hop_emb.view(-1, self.h, self.dk).permute(1, 2, 0)
        q_hop = torch.matmul(q, hop.unsqueeze(0))
        bias = torch.gather(q_hop, 3, hops.unsqueeze(1).expand(-1, self.h, -1, -1))
        att = torch.softmax((q @ k.transpose(-1, -2) + bias) / self.dk ** 0.5, dim=-1)
        return (att @ v).transpose(1, 2).reshape(b, j, -1)


if __name__ == "__main__":
    torch.manual_seed(0)
    snake = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8]
    hops = hop_distances(snake).unsqueeze(0).repeat(2, 1, 1)
    layer = HopBiasedAttention(SkeletonAttnConfig())
    out = layer(torch.randn(2, len(snake), 32), hops)
    print("joint features:", tuple(out.shape))
