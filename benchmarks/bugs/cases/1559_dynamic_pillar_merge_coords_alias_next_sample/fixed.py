import torch


def build_cfg():
    return {
        "point_cloud_range": [0.0, -4.0, -3.0, 8.0, 4.0, 1.0],
        "voxel_size": [1.0, 1.0, 4.0],
        "num_point_features": 4,
        "batch_size": 2,
    }


def mask_points_by_range(points, limit_range):
    mask = (points[:, 1] >= limit_range[0]) & (points[:, 1] <= limit_range[3]) \
        & (points[:, 2] >= limit_range[1]) & (points[:, 2] <= limit_range[4])
    return mask


class DynamicPillarSum:
    def __init__(self, cfg):
        self.point_cloud_range = torch.tensor(cfg["point_cloud_range"])
        self.voxel_size = torch.tensor(cfg["voxel_size"])
        grid = (self.point_cloud_range[3:] - self.point_cloud_range[:3]) / self.voxel_size
        self.grid_size = grid.round().long()
        self.scale_xy = int(self.grid_size[0] * self.grid_size[1])
        self.scale_y = int(self.grid_size[1])

    def __call__(self, batch_dict):
        points = batch_dict["points"]
        feats = points[:, 1:]
        coords = torch.floor((points[:, 1:3] - self.point_cloud_range[:2]) / self.voxel_size[:2]).long()
        keep = ((coords >= 0) & (coords < self.grid_size[:2])).all(dim=1)
        points, feats, coords = points[keep], feats[keep], coords[keep]
        merge_coords = points[:, 0].long() * self.scale_xy + coords[:, 0] * self.scale_y + coords[:, 1]
        bev = feats.new_zeros(batch_dict["batch_size"] * self.scale_xy, feats.shape[1])
        bev.index_add_(0, merge_coords, feats)
        bev = bev.view(batch_dict["batch_size"], self.grid_size[0], self.grid_size[1], -1)
        batch_dict["spatial_features"] = bev.permute(0, 3, 1, 2).contiguous()
        return batch_dict


def load_batch(cfg):
    g = torch.Generator().manual_seed(3)
    lo = torch.tensor(cfg["point_cloud_range"][:3])
    hi = torch.tensor(cfg["point_cloud_range"][3:])
    clouds = []
    for b in range(cfg["batch_size"]):
        xyz = lo + torch.rand(40, 3, generator=g) * (hi - lo)
        inten = torch.rand(40, 1, generator=g)
        clouds.append(torch.cat([torch.full((40, 1), float(b)), xyz, inten], dim=1))
    far_edge = torch.tensor([[0.0, 8.0, 0.5, -1.0, 0.9], [0.0, 8.0, -2.5, 0.0, 0.8]])
    points = torch.cat(clouds + [far_edge], dim=0)
    points = points[mask_points_by_range(points, cfg["point_cloud_range"])]
    return {"points": points, "batch_size": cfg["batch_size"]}


if __name__ == "__main__":
    cfg = build_cfg()
    batch = load_batch(cfg)
    vfe = DynamicPillarSum(cfg)
    out = vfe(dict(batch))["spatial_features"]
    pts = batch["points"]
    ref = torch.zeros_like(out)
    for p in pts:
        ix = int((p[1] - cfg["point_cloud_range"][0]) // cfg["voxel_size"][0])
        iy = int((p[2] - cfg["point_cloud_range"][1]) // cfg["voxel_size"][1])
        if 0 <= ix < out.shape[2] and 0 <= iy < out.shape[3]:
            ref[int(p[0]), :, ix, iy] += p[1:]
    assert torch.allclose(out, ref, atol=1e-5)
    print("ok")
