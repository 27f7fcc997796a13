import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PATCH, MERGE, MAX_PIXELS, HIDDEN, IMAGE_TOKEN = 14, 2, 56 * 56, 24, 151


def smart_resize(h, w, factor=PATCH * MERGE, max_pixels=MAX_PIXELS):
    """Resize (h, w) to multiples of `factor` with at most `max_pixels` pixels."""
    h, w = max(factor, round(h / factor) * factor), max(factor, round(w / factor) * factor)
    if h * w > max_pixels:
        beta = math.sqrt(h * w / max_pixels)
        h = max(factor, math.floor(h / beta / factor) * factor)
        w = max(factor, math.floor(w / beta / factor) * factor)
    return h, w


def encode_image(image, patch_embed):
    """Vision encoder.

    Args:
        image: `(3, H, W)` raw image.
    Returns:
        `(num_merged_patches, hidden)` features, one row per merged 2x2 patch group.
    """
    h, w = smart_resize(*image.shape[1:])
    x = F.interpolate(image[None], size=(h, w), mode="bilinear", align_corners=False)
    x = patch_embed(x)                                   # (1, hidden, h/14, w/14)
    x = F.avg_pool2d(x, MERGE)                           # merge 2x2 patches
    return x.flatten(2).transpose(1, 2)[0]


def build_input_ids(text_ids, image):
    """Prompt with one placeholder per merged patch of `image` (`(3, H, W)`)."""
    h, w = image.shape[1:]
    n = (h // PATCH) * (w // PATCH) // (MERGE * MERGE)
    return torch.tensor(text_ids[:1] + [IMAGE_TOKEN] * n + text_ids[1:])


def fuse_input_embeds(embed_tokens, input_ids, mm_embeds):
    """Replace placeholder rows with multimodal embeddings.

    Args:
        input_ids: `(num_tokens,)` flattened prompt ids.
        mm_embeds: list of `(num_image_tokens_i, hidden)` tensors.
    Returns:
        `(num_tokens, hidden)` input embeddings.
    """
    input_embeds = embed_tokens(input_ids)
    mm_token_indices = torch.where(input_ids == IMAGE_TOKEN)[0]
    mm_embed = torch.cat(mm_embeds, dim=0)
    input_embeds[mm_token_indices, :] = mm_embed.to(dtype=input_embeds.dtype)
    return input_embeds


if __name__ == "__main__":
    torch.manual_seed(0)
    embed_tokens = nn.Embedding(200, HIDDEN)
    patch_embed = nn.Conv2d(3, HIDDEN, PATCH, PATCH)
    image = torch.rand(3, 112, 84)
    with torch.no_grad():
        input_ids = build_input_ids([1, 2, 3, 4], image)
        mm = encode_image(image, patch_embed)
        print("placeholders:", int((input_ids == IMAGE_TOKEN).sum()), "image embeddings:", mm.shape[0])
        out = fuse_input_embeds(embed_tokens, input_ids, [mm])
        print("fused:", tuple(out.shape))
