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
            torch.stack([rand_samples[:, 0], y, x], dim=1)
            * torch.tensor([num_images, image_height // 2, image_width // 2])
            + torch.tensor([0, image_height // 2, image_width // 2])
        ).long()
        return indices

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
    print("rgb:", tuple(rays["image"].shape))
