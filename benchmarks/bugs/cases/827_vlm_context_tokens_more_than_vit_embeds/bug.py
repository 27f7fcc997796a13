import torch
import torch.nn as nn

IMG_CONTEXT_ID = 7
NUM_IMAGE_TOKEN = 16


def build_prompt(text_ids, num_region_prompts):
    # <img> 16 context slots </img> text; each region prompt adds one context slot
    ids = [1] + [IMG_CONTEXT_ID] * NUM_IMAGE_TOKEN + [2] + list(text_ids)
    for _ in range(num_region_prompts):
        ids += [3, IMG_CONTEXT_ID, 4]
    return torch.tensor([ids])                                   # [1, L]


class TinyVLM(nn.Module):
    def __init__(self, vocab=32, dim=24, patch_dim=12):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.vision = nn.Linear(patch_dim, dim)

    def merge(self, input_ids, pixel_patches, region_masks):
        input_embeds = self.embed(input_ids)                     # [B, L, C]
        vit_embeds = self.vision(pixel_patches)                  # [N_img, 16, C]
        B, L, C = input_embeds.shape
        input_embeds = input_embeds.reshape(B * L, C)
        selected = input_ids.reshape(B * L) == IMG_CONTEXT_ID    # [B*L]
        input_embeds[selected] = vit_embeds.reshape(-1, C)
        return input_embeds.reshape(B, L, C)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyVLM()
    patches = torch.randn(1, NUM_IMAGE_TOKEN, 12)                # one image, 16 patches
    region_masks = torch.zeros(2, NUM_IMAGE_TOKEN)               # two region prompts
    region_masks[0, :4] = 1
    region_masks[1, 8:] = 1
    input_ids = build_prompt([10, 11, 12], num_region_prompts=2)
    with torch.no_grad():
        merged = model.merge(input_ids, patches, region_masks)
    print("merged embeddings:", tuple(merged.shape))
