import torch
import torch.nn as nn
from jaxtyping import Float, Int


class PillarFeatureNet(nn.Module):
    def __init__(self, in_dim: int = 4, out_dim: int = 16):
        super().__init__()
        self.pointnet = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, out_dim))

    def forward(
        self,
        points: Float[torch.Tensor, "p 4"],
        pillar_ids: Int[torch.Tensor, " p"],
        num_pillars: int,
    ) -> Float[torch.Tensor, "pillars c"]:
        feats: Float[torch.Tensor, "p c"] = self.pointnet(points)
        index: Int[torch.Tensor, "p c"] = pillar_ids[:, None].expand_as(feats)
        pooled = feats.new_zeros(num_pillars, feats.shape[1])
        return pooled.scatter_reduce(0, index, feats, reduce="amax", include_self=False)


def assign_pillars(points: Float[torch.Tensor, "p 4"], cell: float, grid: int) -> Int[torch.Tensor, " p"]:
    ix = (points[:, 0] / cell).floor().long().clamp(0, grid - 1)
    iy = (points[:, 1] / cell).floor().long().clamp(0, grid - 1)
    return iy * grid + ix


if __name__ == "__main__":
    torch.manual_seed(0)
    pts = torch.rand(64, 4) * torch.tensor([4.0, 4.0, 1.0, 1.0])
    ids = assign_pillars(pts, cell=1.0, grid=4)
    net = PillarFeatureNet()
    with torch.no_grad():
        out = net(pts, ids, 16)
        feats = net.pointnet(pts)
    for p in range(16):
        members = [i for i in range(pts.shape[0]) if int(ids[i]) == p]
        for c in range(feats.shape[1]):
            ref = max(float(feats[i, c]) for i in members) if members else 0.0
            assert abs(float(out[p, c]) - ref) < 1e-6
    print("ok")
