import math
from dataclasses import dataclass
from typing import Dict, Optional

import torch
from jaxtyping import Float, Int
from torch import Tensor


@dataclass
class PixelSamplerConfig:
    num_rays_per_batch: int = 4096
    fisheye_crop_radius: Optional[float] = None
    """Radius of the valid fisheye disc, in pixels."""


class PixelSampler:
    def __init__(self, config: PixelSamplerConfig, generator: Optional[torch.Generator] = None):
        self.config = config
        self.generator = generator

    def sample_method_fisheye(
        self, batch_size: int, num_images: int, image_height: int, image_width: int
    ) -> Int[Tensor, "batch_size 3"]:
        rand_samples = torch.rand((batch_size, 3), generator=self.generator)
        radii = self.config.fisheye_crop_radius * torch.sqrt(rand_samples[:, 1])
        theta = 2.0 * torch.pi * rand_samples[:, 2]
        x = radii * torch.cos(theta)
        y = radii * torch.sin(theta)
        indices = torch.floor(
            torch.stack([rand_samples[:, 0] * num_images, y, x], dim=1)
            + torch.tensor([0, image_height // 2, image_width // 2])
        ).long()
        upper = torch.tensor([num_images - 1, image_height - 1, image_width - 1])
        return torch.clamp(indices, min=torch.zeros_like(upper), max=upper)

    def collate_image_dataset_batch(self, batch: Dict[str, Tensor]) -> Dict[str, Tensor]:
        images: Float[Tensor, "num_images height width 3"] = batch["image"]
        num_images, image_height, image_width, _ = images.shape
        indices = self.sample_method_fisheye(
            self.config.num_rays_per_batch, num_images, image_height, image_width
        )
        c, y, x = (i.flatten() for i in torch.split(indices, 1, dim=-1))
        collated = {"image": images[c, y, x], "indices": indices}
        collated["image_idx"] = batch["image_idx"][c]
        return collated


def load_fisheye_batch(num_images: int, height: int, width: int) -> Dict[str, Tensor]:
    return {
        "image": torch.rand(num_images, height, width, 3),
        "image_idx": torch.arange(num_images) + 10,
    }


if __name__ == "__main__":
    config = PixelSamplerConfig(num_rays_per_batch=256, fisheye_crop_radius=30.0)
    sampler = PixelSampler(config, generator=torch.Generator().manual_seed(0))
    batch = load_fisheye_batch(num_images=2, height=64, width=96)
    rays = sampler.collate_image_dataset_batch(batch)

    # reference: redraw the same random numbers and look every pixel up one by one
    rand = torch.rand((256, 3), generator=torch.Generator().manual_seed(0))
    for k in range(256):
        u, v, w = rand[k].tolist()
        r = 30.0 * math.sqrt(v)
        t = 2.0 * math.pi * w
        c = min(int(math.floor(u * 2)), 1)
        yy = min(max(int(math.floor(r * math.sin(t) + 32)), 0), 63)
        xx = min(max(int(math.floor(r * math.cos(t) + 48)), 0), 95)
        assert rays["indices"][k].tolist() == [c, yy, xx]
        assert torch.equal(rays["image"][k], batch["image"][c, yy, xx])
        assert rays["image_idx"][k].item() == c + 10
    print("ok")
