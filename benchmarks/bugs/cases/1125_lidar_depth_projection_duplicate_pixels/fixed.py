import torch
from torch.utils.data import DataLoader, Dataset


class LidarCameraPairs(Dataset):
    def __init__(self, clouds, ranges, intrinsics, image_hw):
        self.clouds = clouds
        self.ranges = ranges
        self.intrinsics = intrinsics
        self.image_hw = image_hw

    def __len__(self):
        return len(self.clouds)

    def project(self, pcd, pcd_range):
        H, W = self.image_hw
        depth_img = torch.zeros(H, W)
        proj = self.intrinsics.matmul(pcd)
        proj_x = (proj[0] / proj[2]).long()
        proj_y = (proj[1] / proj[2]).long()
        keep = (proj_x >= 0) & (proj_x < W) & (proj_y >= 0) & (proj_y < H) & (proj[2] > 0)
        flat = proj_y[keep] * W + proj_x[keep]
        depth_img = depth_img.view(-1).scatter_reduce(0, flat, pcd_range[keep], reduce="amin", include_self=False)
        return depth_img.view(H, W)

    def __getitem__(self, index):
        pcd = self.clouds[index]
        return {"pcd": pcd, "depth_img": self.project(pcd, self.ranges[index])}


def make_scene(n_points, generator):
    xy = torch.rand(2, n_points, generator=generator) * 2 - 1
    z = torch.rand(1, n_points, generator=generator) * 20 + 2
    pcd = torch.cat([xy * z, z], dim=0)
    return pcd, pcd.norm(dim=0)


def reference_depth(pcd, pcd_range, K, image_hw):
    H, W = image_hw
    out = [[0.0] * W for _ in range(H)]
    proj = K.matmul(pcd)
    for n in range(pcd.shape[1]):
        if proj[2, n] <= 0:
            continue
        x = int((proj[0, n] / proj[2, n]).long())
        y = int((proj[1, n] / proj[2, n]).long())
        if 0 <= x < W and 0 <= y < H:
            r = pcd_range[n].item()
            if out[y][x] == 0.0 or r < out[y][x]:
                out[y][x] = r
    return torch.tensor(out)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    scenes = [make_scene(400, g) for _ in range(2)]
    K = torch.tensor([[8.0, 0.0, 8.0], [0.0, 8.0, 6.0], [0.0, 0.0, 1.0]])
    ds = LidarCameraPairs([s[0] for s in scenes], [s[1] for s in scenes], K, (12, 16))
    batch = next(iter(DataLoader(ds, batch_size=2)))
    for b in range(2):
        ref = reference_depth(scenes[b][0], scenes[b][1], K, (12, 16))
        assert torch.allclose(batch["depth_img"][b], ref)
    print("ok")
