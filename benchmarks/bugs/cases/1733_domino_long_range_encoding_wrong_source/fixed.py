import torch
from torch import nn


class BallQuery(nn.Module):
    def __init__(self, radius, num_neighbors):
        super().__init__()
        self.radius = radius
        self.num_neighbors = num_neighbors

    def forward(self, points, p_grid):
        # points: (B, N, 3), p_grid: (B, G, 3) -> mapping (B, N, K), 0 means "no neighbour"
        dist = torch.cdist(points, p_grid)
        d, idx = dist.topk(self.num_neighbors, dim=-1, largest=False)
        return torch.where(d < self.radius, idx, torch.zeros_like(idx))


class VolumeEncodingSampler(nn.Module):
    def __init__(self, grid_resolution, radius, num_neighbors):
        super().__init__()
        self.grid_resolution = grid_resolution
        self.bq_warp = BallQuery(radius, num_neighbors)

    def forward(self, encoding_g, volume_mesh_centers, p_grid):
        # encoding_g: (B, 3, nx, ny, nz) -> [short-range geo, sdf, long-range geo]
        n_pts = volume_mesh_centers.shape[1]

        mapping = self.bq_warp(volume_mesh_centers, p_grid)  # (B, N, K)
        mapping = mapping.type(torch.int64)
        mask = mapping != 0

        # each encoding flattened over the grid and broadcast to every point: (B, N, nx*ny*nz)
        flat = encoding_g.flatten(start_dim=2)  # (B, 3, nx*ny*nz)
        geo_encoding = flat[:, 0:1].expand(-1, n_pts, -1)
        sdf_encoding = flat[:, 1:2].expand(-1, n_pts, -1)
        geo_encoding_long = flat[:, 2:3].expand(-1, n_pts, -1)

        # (B, N, K) each
        geo_encoding_sampled = torch.gather(geo_encoding, 2, mapping) * mask
        sdf_encoding_sampled = torch.gather(sdf_encoding, 2, mapping) * mask
        geo_encoding_long_sampled = torch.gather(geo_encoding_long, 2, mapping) * mask

        # (B, N, 3K)
        return torch.cat((geo_encoding_sampled, sdf_encoding_sampled, geo_encoding_long_sampled), dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    res = (4, 4, 4)
    axes = [torch.linspace(0.0, 1.0, r) for r in res]
    p_grid = torch.stack(torch.meshgrid(*axes, indexing="ij"), dim=-1).reshape(1, -1, 3).repeat(2, 1, 1)
    encoding_g = torch.randn(2, 3, *res)
    centers = torch.rand(2, 10, 3)
    sampler = VolumeEncodingSampler(res, radius=0.45, num_neighbors=5)
    enc = sampler(encoding_g, centers, p_grid)

    mapping = sampler.bq_warp(centers, p_grid)
    ref = torch.zeros_like(enc)
    for b in range(2):
        for n in range(10):
            for k in range(5):
                g = mapping[b, n, k].item()
                if g != 0:
                    for c in range(3):
                        ref[b, n, c * 5 + k] = encoding_g[b, c].reshape(-1)[g]
    assert torch.equal(enc, ref)
    print("ok")
