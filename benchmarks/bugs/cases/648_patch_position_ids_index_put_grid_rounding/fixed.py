from dataclasses import dataclass

import torch


@dataclass
class VisionConfig:
    patch_size: int = 14
    num_patches_per_side: int = 8
    max_image_size: int = 112


def image_target_sizes(image_sizes, cfg):
    return torch.tensor([[-(-h // cfg.patch_size), -(-w // cfg.patch_size)] for h, w in image_sizes])


def patch_attention_mask(pixel_mask, cfg):
    p = cfg.patch_size
    patches = pixel_mask.unfold(1, p, p).unfold(2, p, p)
    return patches.sum(dim=(-1, -2)) > 0


def bucketized_position_ids(pixel_mask, tgt_sizes, cfg):
    p_mask = patch_attention_mask(pixel_mask, cfg)
    batch = p_mask.size(0)
    boundaries = torch.arange(1 / cfg.num_patches_per_side, 1.0, 1 / cfg.num_patches_per_side)
    position_ids = torch.zeros(batch, p_mask[0].numel(), dtype=torch.long)
    for b in range(batch):
        nb_h, nb_w = tgt_sizes[b].tolist()
        frac_h = torch.arange(0, 1 - 1e-6, 1 / nb_h)
        frac_w = torch.arange(0, 1 - 1e-6, 1 / nb_w)
        bucket_h = torch.bucketize(frac_h, boundaries, right=True)
        bucket_w = torch.bucketize(frac_w, boundaries, right=True)
        pos_ids = (bucket_h[:, None] * cfg.num_patches_per_side + bucket_w).flatten()
        position_ids[b][p_mask[b].view(-1)] = pos_ids
    return position_ids


def pad_images(image_sizes, cfg):
    mask = torch.zeros(len(image_sizes), cfg.max_image_size, cfg.max_image_size)
    for b, (h, w) in enumerate(image_sizes):
        mask[b, :h, :w] = 1
    return mask


if __name__ == "__main__":
    cfg = VisionConfig()
    image_sizes = [(112, 112), (100, 90)]
    pixel_mask = pad_images(image_sizes, cfg)
    ids = bucketized_position_ids(pixel_mask, image_target_sizes(image_sizes, cfg), cfg)
    side = cfg.max_image_size // cfg.patch_size
    for b, (h, w) in enumerate(image_sizes):
        nb_h, nb_w = -(-h // cfg.patch_size), -(-w // cfg.patch_size)
        for i in range(side):
            for j in range(side):
                if i < nb_h and j < nb_w:
                    bh = min(int((i / nb_h) * cfg.num_patches_per_side + 1e-9), cfg.num_patches_per_side - 1)
                    bw = min(int((j / nb_w) * cfg.num_patches_per_side + 1e-9), cfg.num_patches_per_side - 1)
                    expected = bh * cfg.num_patches_per_side + bw
                else:
                    expected = 0
                assert ids[b, i * side + j].item() == expected, (b, i, j)
    print("ok")
