import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class PillarFeatureNet(nn.Module):
    def __init__(self, num_input_features: int, num_filters: int):
        super().__init__()
        self.linear = nn.Linear(num_input_features, num_filters)

    def forward(
        self, features: Float[Tensor, "pillars points feat"], num_points: Int[Tensor, " pillars"]
    ) -> Float[Tensor, "pillars channels"]:
        mean = features.sum(dim=1) / num_points.clamp(min=1).unsqueeze(1).float()
        return torch.relu(self.linear(mean))


class PointPillarsScatter(nn.Module):
    def __init__(self, ny: int, nx: int, num_input_features: int):
        super().__init__()
        self.ny = ny
        self.nx = nx
        self.nchannels = num_input_features

    def forward(
        self,
        voxel_features: Float[Tensor, "pillars channels"],
        coords: Int[Tensor, "pillars 4"],
        batch_size: int,
    ) -> Float[Tensor, "batch channels ny nx"]:
        batch_canvas = []
        for batch_itt in range(batch_size):
            canvas = torch.zeros(self.nchannels, self.nx * self.ny, dtype=voxel_features.dtype)
            batch_mask = coords[:, 0] == batch_itt
            this_coords = coords[batch_mask, :]
            indices = (this_coords[:, 2] * self.nx + this_coords[:, 3]).long()
            voxels = voxel_features[batch_mask, :].t()
            canvas[:, indices] = voxels
            batch_canvas.append(canvas)
        batch_canvas = torch.stack(batch_canvas, 0)
        return batch_canvas.view(batch_size, self.nchannels, self.ny, self.nx)


class PointPillarsBackbone(nn.Module):
    def __init__(self, ny: int, nx: int, num_input_features: int = 4, num_filters: int = 8):
        super().__init__()
        self.voxel_feature_extractor = PillarFeatureNet(num_input_features, num_filters)
        self.middle_feature_extractor = PointPillarsScatter(ny, nx, num_filters)

    def forward(self, example: dict) -> Float[Tensor, "batch channels ny nx"]:
        voxels = example["voxels"]
        num_points = example["num_points"]
        coors = example["coordinates"].clone()
        coors[:, 0] -= coors[:, 0].min()  # a replica's samples keep their global batch ids
        batch_size_dev = example["anchors"].shape[0]
        voxel_features = self.voxel_feature_extractor(voxels, num_points)
        return self.middle_feature_extractor(voxel_features, coors, batch_size_dev)


def split_for_replica(example: dict, samples: list) -> dict:
    """What nn.DataParallel's scatter hands one GPU: the anchors of its samples and
    the pillar rows whose batch column belongs to them (the column is not renumbered)."""
    keep = torch.isin(example["coordinates"][:, 0], torch.tensor(samples))
    return {
        "voxels": example["voxels"][keep],
        "num_points": example["num_points"][keep],
        "coordinates": example["coordinates"][keep],
        "anchors": example["anchors"][samples],
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    ny, nx, batch = 16, 16, 4
    pillars_per_sample = 20
    rows = []
    for b in range(batch):
        cells = torch.randperm(ny * nx)[:pillars_per_sample]
        rows.append(torch.stack([
            torch.full_like(cells, b), torch.zeros_like(cells), cells // nx, cells % nx,
        ], dim=1))
    coords = torch.cat(rows)
    example = {
        "voxels": torch.randn(coords.shape[0], 5, 4),
        "num_points": torch.randint(1, 6, (coords.shape[0],)),
        "coordinates": coords,
        "anchors": torch.randn(batch, 100, 7),
    }
    model = PointPillarsBackbone(ny, nx)
    with torch.no_grad():
        replica_out = model(split_for_replica(example, [2, 3]))
        full_out = model(example)
        feats = model.voxel_feature_extractor(example["voxels"], example["num_points"])

    # reference: put every pillar's feature vector into its cell by hand
    ref = torch.zeros(batch, 8, ny, nx)
    for p in range(coords.shape[0]):
        b, _, y, x = coords[p].tolist()
        ref[b, :, y, x] = feats[p]
    assert torch.allclose(full_out, ref)
    assert torch.allclose(replica_out, ref[2:4])
    print("ok")
