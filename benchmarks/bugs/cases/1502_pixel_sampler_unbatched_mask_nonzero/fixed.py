from typing import Dict, List, Optional

import torch
from jaxtyping import Bool, Float, Int
from torch import Tensor


class PixelSampler:
    """Samples rays (pixels) from a batch of training images.

    Args:
        num_rays_per_batch: number of rays to sample per batch.
        seed: seed of the sampler's generator.
    """

    def __init__(self, num_rays_per_batch: int, seed: int = 0) -> None:
        self.num_rays_per_batch = num_rays_per_batch
        self.generator = torch.Generator().manual_seed(seed)

    def sample_method(
        self,
        batch_size: int,
        num_images: int,
        image_height: int,
        image_width: int,
        mask: Optional[Bool[Tensor, "num_images image_height image_width 1"]] = None,
    ) -> Int[Tensor, "batch_size 3"]:
        """Uniformly samples (image, y, x) triplets, only inside the mask if one is given."""
        if mask is not None:
            nonzero_indices = torch.nonzero(mask[..., 0], as_tuple=False)
            chosen = torch.randperm(len(nonzero_indices), generator=self.generator)[:batch_size]
            return nonzero_indices[chosen]
        scale = torch.tensor([num_images, image_height, image_width])
        return torch.floor(torch.rand((batch_size, 3), generator=self.generator) * scale).long()

    def collate_image_dataset_batch_list(self, batch: Dict) -> Dict[str, Tensor]:
        """Same as the tensor version, for images of different resolutions given as lists."""
        images: List[Float[Tensor, "H W 3"]] = batch["image"]
        masks: List[Bool[Tensor, "H W 1"]] = batch["mask"]
        num_images = len(images)
        num_rays_in_batch = self.num_rays_per_batch // num_images

        all_indices, all_images = [], []
        for i in range(num_images):
            image_height, image_width, _ = images[i].shape
            indices = self.sample_method(num_rays_in_batch, 1, image_height, image_width, mask=masks[i].unsqueeze(0))
            indices[:, 0] = i
            all_indices.append(indices)
            all_images.append(images[i][indices[:, 1], indices[:, 2]])

        indices = torch.cat(all_indices, dim=0)
        indices[:, 0] = batch["image_idx"][indices[:, 0]]
        return {"image": torch.cat(all_images, dim=0), "indices": indices}


def make_batch(shapes, generator):
    images, masks = [], []
    for h, w in shapes:
        images.append(torch.rand(h, w, 3, generator=generator))
        m = torch.zeros(h, w, 1, dtype=torch.bool)
        m[h // 4 : 3 * h // 4, w // 4 : 3 * w // 4] = True
        masks.append(m)
    return {"image": images, "mask": masks, "image_idx": torch.tensor([7, 2, 11])}


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    batch = make_batch([(40, 60), (32, 32), (48, 36)], g)
    sampler = PixelSampler(num_rays_per_batch=96)
    pixel_batch = sampler.collate_image_dataset_batch_list(batch)

    assert pixel_batch["image"].shape == (96, 3)
    k = 0
    for i in range(3):
        for r in range(32):
            cam, y, x = pixel_batch["indices"][k].tolist()
            assert cam == batch["image_idx"][i].item()
            assert batch["mask"][i][y][x][0].item()
            for ch in range(3):
                assert pixel_batch["image"][k][ch].item() == batch["image"][i][y][x][ch].item()
            k += 1
    print("ok")
