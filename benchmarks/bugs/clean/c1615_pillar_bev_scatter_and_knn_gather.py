"""PointPillars-style BEV scatter and DGCNN-style kNN edge features (correct usage)."""
import torch
from torch import nn


class PillarScatter(nn.Module):
    """Writes per-pillar features onto a dense BEV canvas.

    Args:
        in_channels (int): pillar feature size.
        grid_size (tuple[int, int]): (ny, nx) of the canvas.
    """

    def __init__(self, in_channels, grid_size):
        super().__init__()
        self.in_channels = in_channels
        self.ny, self.nx = grid_size

    def forward(self, pillar_feats, coors, batch_size):
        """
        Args:
            pillar_feats (Tensor): (P, C) features of the non-empty pillars.
            coors (LongTensor): (P, 4) as (batch_idx, z, y, x).
            batch_size (int): number of samples.

        Returns:
            Tensor: (B, C, ny, nx) canvas.
        """
        canvas = pillar_feats.new_zeros(batch_size, self.in_channels, self.ny * self.nx)
        flat = coors[:, 2] * self.nx + coors[:, 3]
        index = flat.unsqueeze(0).expand(self.in_channels, -1)
        for b in range(batch_size):
            sel = coors[:, 0] == b
            canvas[b].scatter_(1, index[:, sel], pillar_feats[sel].t())
        return canvas.view(batch_size, self.in_channels, self.ny, self.nx)


def knn(x, k):
    """Indices of the k nearest neighbours, x: (B, C, N) -> (B, N, k)."""
    inner = -2 * torch.matmul(x.transpose(2, 1), x)
    sq = (x ** 2).sum(dim=1, keepdim=True)
    neg_dist = -sq - inner - sq.transpose(2, 1)
    return neg_dist.topk(k=k, dim=-1)[1]


def edge_features(x, k):
    """DGCNN edge features, x: (B, C, N) -> (B, 2C, N, k)."""
    b, c, n = x.shape
    idx = knn(x, k)  # (B, N, k)
    pts = x.transpose(1, 2)  # (B, N, C)
    gather_idx = idx.reshape(b, n * k, 1).expand(-1, -1, c)  # (B, N*k, C)
    neigh = torch.gather(pts, 1, gather_idx).view(b, n, k, c)  # (B, N, k, C)
    center = pts.unsqueeze(2).expand(-1, -1, k, -1)
    return torch.cat([neigh - center, center], dim=3).permute(0, 3, 1, 2).contiguous()


if __name__ == "__main__":
    torch.manual_seed(0)
    ny, nx, c, bsz = 6, 8, 5, 2
    cells = torch.randperm(ny * nx)[:20]
    coors = torch.stack([
        torch.arange(20) % bsz,
        torch.zeros(20, dtype=torch.long),
        cells // nx,
        cells % nx,
    ], dim=1)
    feats = torch.randn(20, c)
    bev = PillarScatter(c, (ny, nx))(feats, coors, bsz)
    ref = torch.zeros(bsz, c, ny, nx)
    for p in range(20):
        b, _, y, xx = coors[p].tolist()
        ref[b, :, y, xx] = feats[p]
    assert torch.equal(bev, ref)

    x = torch.randn(2, 3, 10)
    k = 4
    e = edge_features(x, k)
    idx = knn(x, k)
    for b in range(2):
        for i in range(10):
            for j in range(k):
                nb = idx[b, i, j].item()
                assert torch.allclose(e[b, :3, i, j], x[b, :, nb] - x[b, :, i])
                assert torch.allclose(e[b, 3:, i, j], x[b, :, i])
    print("ok")
