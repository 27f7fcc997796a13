import torch
from jaxtyping import Float, Int
from torch import Tensor


class PatchEmbeddingDataloader:
    """Grid of per-tile CLIP embeddings for every training image, bilinearly interpolated at pixels."""

    def __init__(self, cfg: dict, image_embeds: Float[Tensor, "num_images tiles_x tiles_y embed_dim"]):
        self.kernel_size = int(cfg["image_shape"][0] * cfg["tile_ratio"])
        self.stride = int(self.kernel_size * cfg["stride_ratio"])
        self.padding = self.kernel_size // 2
        first_center = (self.kernel_size - 1) / 2 - self.padding
        num_x = (cfg["image_shape"][0] + 2 * self.padding - (self.kernel_size - 1) - 1) // self.stride + 1
        num_y = (cfg["image_shape"][1] + 2 * self.padding - (self.kernel_size - 1) - 1) // self.stride + 1
        self.center_x: Float[Tensor, "num_x"] = first_center + self.stride * torch.arange(num_x, dtype=torch.float32)
        self.center_y: Float[Tensor, "num_y"] = first_center + self.stride * torch.arange(num_y, dtype=torch.float32)
        # the last tile row/column is repeated once so that x_ind + 1 is always valid
        self.data = image_embeds

    def __call__(self, img_points: Float[Tensor, "batch 3"]) -> Float[Tensor, "batch embed_dim"]:
        img_ind = img_points[:, 0].long()
        img_points_x, img_points_y = img_points[:, 1].contiguous(), img_points[:, 2].contiguous()
        x_ind = torch.floor((img_points_x - self.center_x[0]) / self.stride).long()
        y_ind = torch.floor((img_points_y - self.center_y[0]) / self.stride).long()
        return self._interp_inds(img_ind, x_ind, y_ind, img_points_x, img_points_y)

    def _interp_inds(
        self,
        img_ind: Int[Tensor, "batch"],
        x_ind: Int[Tensor, "batch"],
        y_ind: Int[Tensor, "batch"],
        img_points_x: Float[Tensor, "batch"],
        img_points_y: Float[Tensor, "batch"],
    ) -> Float[Tensor, "batch embed_dim"]:
        topleft = self.data[img_ind, x_ind, y_ind]
        topright = self.data[img_ind, x_ind + 1, y_ind]
        botleft = self.data[img_ind, x_ind, y_ind + 1]
        botright = self.data[img_ind, x_ind + 1, y_ind + 1]

        right_w = (img_points_x - self.center_x[x_ind]) / self.stride
        top = torch.lerp(topleft, topright, right_w[:, None])
        bot = torch.lerp(botleft, botright, right_w[:, None])

        bot_w = (img_points_y - self.center_y[y_ind]) / self.stride
        return torch.lerp(top, bot, bot_w[:, None])


def reference_lookup(loader, img_points):
    out = []
    for img, px, py in img_points.tolist():
        i, j = int(px // loader.stride), int(py // loader.stride)
        wx = (px - loader.center_x[i].item()) / loader.stride
        wy = (py - loader.center_y[j].item()) / loader.stride
        d = loader.data[int(img)]
        top = d[i, j] * (1 - wx) + d[i + 1, j] * wx
        bot = d[i, j + 1] * (1 - wx) + d[i + 1, j + 1] * wx
        out.append(top * (1 - wy) + bot * wy)
    return torch.stack(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"image_shape": (60, 80), "tile_ratio": 0.25, "stride_ratio": 0.5}
    probe = PatchEmbeddingDataloader(cfg, torch.empty(0))
    embeds = torch.randn(2, len(probe.center_x) + 1, len(probe.center_y) + 1, 16)
    loader = PatchEmbeddingDataloader(cfg, embeds)

    num_rays = 64
    rows = torch.randint(0, cfg["image_shape"][0], (num_rays,)).float()
    cols = torch.randint(0, cfg["image_shape"][1], (num_rays,)).float()
    rows[:6] = 0.0  # rays sampled on the image border
    cols[6:10] = 0.0
    img_points = torch.stack([torch.randint(0, 2, (num_rays,)).float(), rows, cols], dim=1)

    got = loader(img_points)
    ref = reference_lookup(loader, img_points)
    assert torch.allclose(got, ref, atol=1e-5), (got - ref).abs().max()
    print("ok")
