import torch
import torch.nn as nn
from jaxtyping import Float, Int64
from torch import Tensor


def furthest_point_sampling(xyz: Float[Tensor, "n 3"], npoint: int) -> Int64[Tensor, " npoint"]:
    n = xyz.shape[0]
    idx = torch.zeros(npoint, dtype=torch.long)
    dist = torch.full((n,), float("inf"))
    farthest = 0
    for i in range(npoint):
        idx[i] = farthest
        dist = torch.minimum(dist, ((xyz - xyz[farthest]) ** 2).sum(-1))
        farthest = int(dist.argmax())
    return idx


def furthest_point_sampling_packed(
    xyz: Float[Tensor, "n 3"],
    row_splits: Int64[Tensor, " b_plus_1"],
    new_row_splits: Int64[Tensor, " b_plus_1"],
) -> Int64[Tensor, " m"]:
    idx = []
    for i in range(row_splits.shape[0] - 1):
        start_i, end_i = int(row_splits[i]), int(row_splits[i + 1])
        npoint = int(new_row_splits[i + 1] - new_row_splits[i])
        out = furthest_point_sampling(xyz[start_i:end_i], npoint) + start_i  # local -> packed index
        idx.append(out)
    return torch.cat(idx)


class TransitionDown(nn.Module):
    def __init__(self, in_planes: int, out_planes: int, stride: int = 4):
        super().__init__()
        self.stride = stride
        self.linear = nn.Linear(in_planes, out_planes)

    def forward(
        self,
        p: Float[Tensor, "n 3"],
        x: Float[Tensor, "n c"],
        row_splits: Int64[Tensor, " b_plus_1"],
    ) -> tuple[Float[Tensor, "m 3"], Float[Tensor, "m d"], Int64[Tensor, " b_plus_1"]]:
        counts = row_splits[1:] - row_splits[:-1]
        new_row_splits = torch.cat([row_splits.new_zeros(1), torch.cumsum(counts // self.stride, 0)])
        idx = furthest_point_sampling_packed(p, row_splits, new_row_splits)
        n_p = p.index_select(0, idx)
        n_x = torch.relu(self.linear(x.index_select(0, idx)))
        return n_p, n_x, new_row_splits


if __name__ == "__main__":
    torch.manual_seed(0)
    room_a = torch.rand(64, 3) * 4.0
    room_b = torch.rand(48, 3) * 4.0 + torch.tensor([100.0, 0.0, 0.0])
    p = torch.cat([room_a, room_b])
    x = torch.randn(p.shape[0], 6)
    row_splits = torch.tensor([0, 64, 112])
    down = TransitionDown(6, 16)
    with torch.no_grad():
        n_p, n_x, new_row_splits = down(p, x, row_splits)
        ref_p, ref_x = [], []
        for i in range(2):
            a, b = int(row_splits[i]), int(row_splits[i + 1])
            local = furthest_point_sampling(p[a:b], (b - a) // 4)
            for j in local.tolist():
                ref_p.append(p[a + j])
                ref_x.append(torch.relu(down.linear(x[a + j])))
    assert new_row_splits.tolist() == [0, 16, 28]
    assert torch.equal(n_p, torch.stack(ref_p))
    assert torch.allclose(n_x, torch.stack(ref_x), atol=1e-6)
    assert n_p[16:, 0].min() >= 100.0
    print("ok")
