import torch
import torch.nn as nn

CONFIG = {
    "image_size": 24,
    "patch_size": 6,
    "vision_hidden": 16,
    "text_hidden": 32,
    "vocab_size": 100,
    "image_token_id": 99,
    "vision_use_cls_token": False,  # SigLIP-style tower
}


def build_prompt_ids(cfg, text_ids):
    side = cfg["image_size"] // cfg["patch_size"]
    num_image_tokens = side * side + 1
    return torch.tensor([cfg["image_token_id"]] * num_image_tokens + text_ids)


class PatchTower(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        p = cfg["patch_size"]
        self.proj = nn.Conv2d(3, cfg["vision_hidden"], kernel_size=p, stride=p)
        self.cls = nn.Parameter(torch.zeros(1, 1, cfg["vision_hidden"])) if cfg["vision_use_cls_token"] else None

    def forward(self, pixels):
        x = self.proj(pixels).flatten(2).transpose(1, 2)
        if self.cls is not None:
            x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1)
        return x


class TinyLlava(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["text_hidden"])
        self.tower = PatchTower(cfg)
        self.projector = nn.Linear(cfg["vision_hidden"], cfg["text_hidden"])

    def merge(self, input_ids, pixel_values):
        inputs_embeds = self.embed(input_ids)
        image_features = self.projector(self.tower(pixel_values)).reshape(-1, inputs_embeds.shape[-1])
        special = (input_ids == self.cfg["image_token_id"]).unsqueeze(-1).expand_as(inputs_embeds)
        return inputs_embeds.masked_scatter(special, image_features)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLlava(CONFIG)
    ids = torch.stack([build_prompt_ids(CONFIG, [5, 6, 7]), build_prompt_ids(CONFIG, [8, 9, 10])])
    pixels = torch.randn(2, 3, CONFIG["image_size"], CONFIG["image_size"])
    merged = model.merge(ids, pixels)
    print(merged.shape)
