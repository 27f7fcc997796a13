import math

import torch
import torch.nn as nn


class ToDenseBEVConvolution(nn.Module):
    """Converts sparse voxels into a dense BEV map: one FC kernel per height slice, summed per BEV cell."""

    def __init__(self, in_channels, out_channels, shape, offset=(0, 0, 0)):
        super().__init__()
        self.register_buffer("offset", torch.tensor([[0] + list(offset)]))  # [1, 4] as (b, x, y, z)
        self.register_buffer("shape", torch.tensor(shape))  # (X, Y, Z)
        self.n_kernels = int(self.shape[2])
        self.kernel = nn.Parameter(torch.empty(self.n_kernels, in_channels, out_channels))
        std = 1.0 / math.sqrt(in_channels)
        self.kernel.data.uniform_(-std, std)

    def forward(self, coords, feats):
        # coords: [N, 4] integer voxels as (b, x, y, z); feats: [N, C]
        kernel = torch.index_select(self.kernel, 0, coords[:, 3])  # [N, C, O]
        feats = (feats.unsqueeze(-1) * kernel).sum(1)  # [N, O]
        coords = (coords - self.offset).t()[[3, 1, 2]].long()  # [3, N] as (b, x, y)
        size_x, size_y = int(self.shape[0]), int(self.shape[1])
        indices = coords[0] * (size_x * size_y) + coords[1] * size_y + coords[2]  # [N]
        batch_size = int(coords[0].max()) + 1
        output = feats.new_zeros(batch_size * size_x * size_y, feats.shape[-1])
        output.index_add_(0, indices, feats)  # [B * X * Y, O]
        return output.view(batch_size, size_x, size_y, -1).permute(0, 3, 1, 2).contiguous()


def reference_bev(layer, coords, feats, batch_size):
    X, Y, _ = layer.shape.tolist()
    out = torch.zeros(batch_size, layer.kernel.shape[2], X, Y)
    for (b, x, y, z), f in zip(coords.tolist(), feats):
        out[b, :, x, y] += f @ layer.kernel[z]
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = ToDenseBEVConvolution(in_channels=8, out_channels=6, shape=(10, 12, 4))
    batch_size, points_per_cloud = 2, 40
    coords = torch.cat([
        torch.stack([
            torch.full((points_per_cloud,), b),
            torch.randint(0, 10, (points_per_cloud,)),
            torch.randint(0, 12, (points_per_cloud,)),
            torch.randint(0, 4, (points_per_cloud,)),
        ], dim=1)
        for b in range(batch_size)
    ])
    feats = torch.randn(len(coords), 8)
    with torch.no_grad():
        bev = layer(coords, feats)
        ref = reference_bev(layer, coords, feats, batch_size)
    print("bev map:", tuple(bev.shape), "expected:", tuple(ref.shape))
    n = min(len(bev), len(ref))
    print("max diff on shared batches:", round((bev[:n] - ref[:n]).abs().max().item(), 3))
