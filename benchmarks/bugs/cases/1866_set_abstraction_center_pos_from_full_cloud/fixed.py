import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def farthest_point_sampling(pos: Float[Tensor, "n 3"], batch: Int[Tensor, "n"], ratio: float) -> Int[Tensor, "m"]:
    picked = []
    for b in batch.unique().tolist():
        members = (batch == b).nonzero().squeeze(1)
        pts = pos[members]
        k = max(1, int(round(ratio * members.numel())))
        chosen = [0]
        dist = (pts - pts[0]).pow(2).sum(-1)
        for _ in range(k - 1):
            nxt = int(dist.argmax())
            chosen.append(nxt)
            dist = torch.minimum(dist, (pts - pts[nxt]).pow(2).sum(-1))
        picked.append(members[torch.tensor(chosen)])
    return torch.cat(picked)


def radius_neighbors(pos: Float[Tensor, "n 3"], batch: Int[Tensor, "n"], centers: Int[Tensor, "m"], r: float,
                     max_neighbors: int) -> Int[Tensor, "2 e"]:
    """Edges (center slot, point) for every point of the same cloud within r of a sampled center."""
    d = torch.cdist(pos[centers], pos)
    d[batch[centers].unsqueeze(1) != batch.unsqueeze(0)] = float("inf")
    d[d > r] = float("inf")
    k = min(max_neighbors, pos.size(0))
    dist, col = d.topk(k, dim=1, largest=False)
    row = torch.arange(centers.numel()).unsqueeze(1).expand_as(col)
    keep = torch.isfinite(dist)
    return torch.stack([row[keep], col[keep]])


class SetAbstraction(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, ratio: float, radius: float, max_neighbors: int = 16):
        super().__init__()
        self.ratio, self.radius, self.max_neighbors = ratio, radius, max_neighbors
        self.mlp = nn.Sequential(nn.Linear(in_channels + 3, out_channels), nn.ReLU(), nn.Linear(out_channels, out_channels))

    def forward(self, x: Float[Tensor, "n c"], pos: Float[Tensor, "n 3"], batch: Int[Tensor, "n"]):
        centers: Int[Tensor, "m"] = farthest_point_sampling(pos, batch, self.ratio)
        row, col = radius_neighbors(pos, batch, centers, self.radius, self.max_neighbors)
        center_pos: Float[Tensor, "m 3"] = pos[centers]
        rel: Float[Tensor, "e 3"] = pos[col] - center_pos[row]
        msg: Float[Tensor, "e d"] = self.mlp(torch.cat([x[col], rel], dim=1))
        out = torch.full((centers.numel(), msg.size(1)), float("-inf"))
        out = out.scatter_reduce(0, row.unsqueeze(1).expand_as(msg), msg, reduce="amax", include_self=True)
        return out, pos[centers], batch[centers], centers


if __name__ == "__main__":
    torch.manual_seed(0)
    pos = torch.rand(2 * 64, 3)
    batch = torch.arange(2).repeat_interleave(64)
    x = torch.randn(2 * 64, 6)
    sa = SetAbstraction(6, 32, ratio=0.25, radius=0.4)
    with torch.no_grad():
        out, new_pos, new_batch, centers = sa(x, pos, batch)
        ref = torch.empty_like(out)
        for m, c in enumerate(centers.tolist()):
            same = (batch == batch[c]).nonzero().squeeze(1)
            d = (pos[same] - pos[c]).norm(dim=1)
            nb = same[d <= 0.4][d[d <= 0.4].argsort()[:16]]
            feats = sa.mlp(torch.cat([x[nb], pos[nb] - pos[c]], dim=1))
            ref[m] = feats.max(dim=0).values
    assert torch.allclose(out, ref, atol=1e-5)
    assert torch.equal(new_pos, pos[centers]) and torch.equal(new_batch, batch[centers])
    print("ok")
