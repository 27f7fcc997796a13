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
        depth_img[proj_y[keep], proj_x[keep]] = pcd_range[keep]
        return depth_img

    def __getitem__(self, index):
        pcd = self.clouds[index]
        return {"pcd": pcd, "depth_img": self.project(pcd, self.ranges[index])}


def make_scene(n_points, generator):
    xy = torch.rand(2, n_points, generator=generator) * 2 - 1
    z = torch.rand(1, n_points, generator=generator) * 20 + 2
    pcd = torch.cat([xy * z, z], dim=0)
    return pcd, pcd.norm(dim=0)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    scenes = [make_scene(400, g) for _ in range(2)]
    K = torch.tensor([[8.0, 0.0, 8.0], [0.0, 8.0, 6.0], [0.0, 0.0, 1.0]])
    ds = LidarCameraPairs([s[0] for s in scenes], [s[1] for s in scenes], K, (12, 16))
    batch = next(iter(DataLoader(ds, batch_size=2)))
    print("mean projected depth:", batch["depth_img"][batch["depth_img"] > 0].mean().item())
