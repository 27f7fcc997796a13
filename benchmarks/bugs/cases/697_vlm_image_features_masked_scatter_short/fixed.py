from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Bool, Float, Int


@dataclass
class VLMConfig:
    vocab_size: int = 50
    hidden: int = 8
    patch_grid: int = 4
    pool: int = 2
    image_token_id: int = 49

    @property
    def patches_per_image(self) -> int:
        side = self.patch_grid // self.pool
        return side * side


def build_prompt(cfg: VLMConfig, text_ids: list, n_images: int) -> list:
    return [cfg.image_token_id] * (cfg.patches_per_image * n_images) + text_ids


class TinyVLM(nn.Module):
    def __init__(self, cfg: VLMConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.hidden)
        self.vision = nn.Conv2d(3, cfg.hidden, kernel_size=4, stride=4)
        self.proj = nn.Linear(cfg.hidden, cfg.hidden)

    def image_features(self, pixels: Float[torch.Tensor, "n 3 h w"]) -> Float[torch.Tensor, "m hidden"]:
        grid = self.vision(pixels)
        grid = F.avg_pool2d(grid, self.cfg.pool)
        return self.proj(grid.flatten(2).transpose(1, 2)).reshape(-1, self.cfg.hidden)

    def merge(
        self,
        input_ids: Int[torch.Tensor, "b l"],
        pixels: Float[torch.Tensor, "n 3 h w"],
    ) -> Float[torch.Tensor, "b l hidden"]:
        embeds = self.embed(input_ids)
        feats = self.image_features(pixels)
        mask: Bool[torch.Tensor, "b l hidden"] = (input_ids == self.cfg.image_token_id).unsqueeze(-1).expand_as(embeds)
        return embeds.masked_scatter(mask, feats)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = VLMConfig()
    model = TinyVLM(cfg)
    ids = torch.tensor([build_prompt(cfg, [5, 6, 7], n_images=2)])
    pixels = torch.randn(2, 3, 16, 16)
    with torch.no_grad():
        out = model.merge(ids, pixels)
        feats = model.image_features(pixels)
        k = 0
        for t, tok in enumerate(ids[0].tolist()):
            if tok == cfg.image_token_id:
                assert torch.allclose(out[0, t], feats[k])
                k += 1
            else:
                assert torch.allclose(out[0, t], model.embed.weight[tok])
        assert k == feats.size(0)
    print("ok")
