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
        vp_embeds = region_masks @ vit_embeds[0] / region_masks.sum(1, keepdim=True)  # [R, C]
        input_embeds[selected] = torch.cat([vit_embeds.reshape(-1, C), vp_embeds])
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
        vit = model.vision(patches)[0]
        text = model.embed(input_ids)[0]
        fills = [vit[k] for k in range(NUM_IMAGE_TOKEN)]
        for r in range(region_masks.shape[0]):
            acc = torch.zeros(24)
            for k in range(NUM_IMAGE_TOKEN):
                acc += region_masks[r, k] * vit[k]
            fills.append(acc / region_masks[r].sum())
        n = 0
        for pos, tok in enumerate(input_ids[0].tolist()):
            want = fills[n] if tok == IMG_CONTEXT_ID else text[pos]
            n += tok == IMG_CONTEXT_ID
            assert torch.allclose(merged[0, pos], want, atol=1e-5), pos
        assert n == len(fills)
    print("ok")
