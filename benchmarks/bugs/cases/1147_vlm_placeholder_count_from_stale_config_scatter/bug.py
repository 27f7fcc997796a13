import torch
import torch.nn as nn

VISION_CFG = {"image_size": 112, "patch_size": 14, "hidden_size": 24, "num_image_tokens": 256}
TEXT_CFG = {"vocab_size": 300, "hidden_size": 24, "image_token_id": 299, "bos_id": 1}


class TinyVisionTower(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        p = cfg["patch_size"]
        self.patchify = nn.Conv2d(3, cfg["hidden_size"], kernel_size=p, stride=p)

    def forward(self, pixels):
        return self.patchify(pixels).flatten(2).transpose(1, 2)


def build_prompt(text_ids, num_image_tokens, cfg):
    image_part = [cfg["image_token_id"]] * num_image_tokens
    return torch.tensor(image_part + [cfg["bos_id"]] + text_ids)


def merge_image_features(inputs_embeds, input_ids, image_features, image_token_id):
    dim = inputs_embeds.shape[-1]
    flat = inputs_embeds.reshape(-1, dim)
    positions = (input_ids.reshape(-1) == image_token_id).nonzero().squeeze(1)
    index = positions.unsqueeze(1).expand(-1, dim)
    merged = flat.scatter(0, index, image_features.reshape(-1, dim))
    return merged.view_as(inputs_embeds)


def prepare_inputs(pixels, prompts, vision, embed):
    input_ids = torch.stack([build_prompt(t, VISION_CFG["num_image_tokens"], TEXT_CFG) for t in prompts])
    image_features = vision(pixels)
    inputs_embeds = embed(input_ids)
    return input_ids, image_features, merge_image_features(inputs_embeds, input_ids, image_features, TEXT_CFG["image_token_id"])


if __name__ == "__main__":
    torch.manual_seed(0)
    vision = TinyVisionTower(VISION_CFG)
    embed = nn.Embedding(TEXT_CFG["vocab_size"], TEXT_CFG["hidden_size"])
    size = VISION_CFG["image_size"]
    pixels = torch.randn(2, 3, size, size)
    prompts = [[5, 6, 7, 8], [9, 10, 11, 12]]
    with torch.no_grad():
        _, _, merged = prepare_inputs(pixels, prompts, vision, embed)
    print("merged:", tuple(merged.shape))
