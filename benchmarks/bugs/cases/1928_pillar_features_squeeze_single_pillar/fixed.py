import torch
from jaxtyping import Float, Int
from torch import Tensor, nn


def get_paddings_indicator(actual_num: Int[Tensor, " pillars"], max_num: int) -> Tensor:
    actual_num = actual_num.unsqueeze(1)
    max_num = torch.arange(max_num, dtype=torch.int, device=actual_num.device).view(1, -1)
    return actual_num.int() > max_num


class PFNLayer(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.linear = nn.Linear(in_channels, out_channels, bias=False)
        self.norm = nn.BatchNorm1d(out_channels, eps=1e-3, momentum=0.01)

    def forward(self, inputs: Float[Tensor, "pillars points in_ch"]) -> Float[Tensor, "pillars 1 out_ch"]:
        x = self.linear(inputs)
        x = self.norm(x.permute(0, 2, 1).contiguous()).permute(0, 2, 1).contiguous()
        x = torch.relu(x)
        x_max = torch.max(x, dim=1, keepdim=True)[0]
        return x_max


class PillarFeatureNet(nn.Module):
    def __init__(self, num_input_features=4, num_filters=64):
        super().__init__()
        self.pfn_layers = nn.ModuleList([PFNLayer(num_input_features + 3, num_filters)])

    def forward(
        self, features: Float[Tensor, "pillars points 4"], num_voxels: Int[Tensor, " pillars"]
    ) -> Float[Tensor, "pillars C"]:
        points_mean = features[:, :, :3].sum(dim=1, keepdim=True) / num_voxels.type_as(features).view(-1, 1, 1)
        f_cluster = features[:, :, :3] - points_mean
        features = torch.cat([features, f_cluster], dim=-1)
        mask = get_paddings_indicator(num_voxels, features.shape[1]).unsqueeze(-1).type_as(features)
        features = features * mask
        for pfn in self.pfn_layers:
            features = pfn(features)
        return features.squeeze(1)


class PointPillarsScatter(nn.Module):
    def __init__(self, num_input_features, nx, ny):
        super().__init__()
        self.nchannels = num_input_features
        self.nx, self.ny = nx, ny

    def forward(
        self, voxel_features: Float[Tensor, "pillars C"], coords: Int[Tensor, "pillars 4"], batch_size: int
    ) -> Float[Tensor, "batch C ny nx"]:
        batch_canvas = []
        for batch_itt in range(batch_size):
            canvas = torch.zeros(self.nchannels, self.nx * self.ny, dtype=voxel_features.dtype)
            batch_mask = coords[:, 0] == batch_itt
            this_coords = coords[batch_mask, :]
            indices = this_coords[:, 2] * self.nx + this_coords[:, 3]
            indices = indices.type(torch.long)
            voxels = voxel_features[batch_mask, :]
            voxels = voxels.t()
            canvas[:, indices] = voxels
            batch_canvas.append(canvas)
        batch_canvas = torch.stack(batch_canvas, 0)
        return batch_canvas.view(batch_size, self.nchannels, self.ny, self.nx)


if __name__ == "__main__":
    torch.manual_seed(0)
    pfn = PillarFeatureNet(num_input_features=4, num_filters=16).eval()
    scatter = PointPillarsScatter(16, nx=10, ny=8)
    # a sparse sweep (batch size 1) whose returns all fall into a single pillar
    features = torch.zeros(1, 32, 4)
    features[0, :5] = torch.tensor([[12.1, -3.2, -1.1, 0.4]]) + 0.05 * torch.randn(5, 4)
    num_voxels = torch.tensor([5])
    coords = torch.tensor([[0, 0, 3, 7]])  # [batch, z, y, x]
    with torch.no_grad():
        voxel_features = pfn(features, num_voxels)
        canvas = scatter(voxel_features, coords, batch_size=1)
    assert voxel_features.shape == (1, 16)
    assert canvas.shape == (1, 16, 8, 10)
    for c in range(16):
        for y in range(8):
            for x in range(10):
                expected = float(voxel_features[0, c]) if (y, x) == (3, 7) else 0.0
                assert float(canvas[0, c, y, x]) == expected
    # a frame with several pillars still works
    feats2 = torch.randn(3, 32, 4)
    nv2 = torch.tensor([4, 9, 1])
    coords2 = torch.tensor([[0, 0, 1, 1], [0, 0, 5, 2], [0, 0, 7, 9]])
    with torch.no_grad():
        vf2 = pfn(feats2, nv2)
        canvas2 = scatter(vf2, coords2, batch_size=1)
    for p, (b, z, y, x) in enumerate(coords2.tolist()):
        assert torch.equal(canvas2[0, :, y, x], vf2[p])
    print("ok")
