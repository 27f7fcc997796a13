from dataclasses import dataclass

import torch
import torch.nn as nn
from jaxtyping import Float, Int


@dataclass
class PalmConfig:
    vocab_size: int = 40
    dim: int = 16
    image_token_id: int = 3
    num_image_tokens: int = 4
    vision_dim: int = 12


class PrefixLM(nn.Module):
    def __init__(self, cfg: PalmConfig):
        super().__init__()
        self.cfg = cfg
        self.tok_emb = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.vision_proj = nn.Linear(cfg.vision_dim, cfg.dim)

    def build_ids(
        self, text_ids: Int[torch.Tensor, "batch text"], img_feats: Float[torch.Tensor, "batch n_img vdim"]
    ) -> Int[torch.Tensor, "batch seq"]:
        b, n_img, _ = img_feats.shape
        img_slots = torch.full((b, n_img), self.cfg.image_token_id, dtype=text_ids.dtype)
        return torch.cat([img_slots, text_ids], dim=1)

    def embed(self, ids: Int[torch.Tensor, "batch seq"]) -> Float[torch.Tensor, "batch seq dim"]:
        flat = self.tok_emb.weight.index_select(0, ids.reshape(-1))
        return flat.view(*ids.shape, self.cfg.dim)

    def forward(
        self, text_ids: Int[torch.Tensor, "batch text"], img_feats: Float[torch.Tensor, "batch n_img vdim"]
    ) -> Float[torch.Tensor, "batch seq dim"]:
        ids = self.build_ids(text_ids, img_feats)
        h = self.embed(ids)
        is_img = ids == self.cfg.image_token_id
        h[is_img] = self.vision_proj(img_feats).reshape(-1, self.cfg.dim)
        return h


def main():
    torch.manual_seed(0)
    cfg = PalmConfig()
    model = PrefixLM(cfg)
    text_ids = torch.randint(5, cfg.vocab_size, (2, 7))
    img_feats = torch.randn(2, cfg.num_image_tokens, cfg.vision_dim)
    with torch.no_grad():
        h = model(text_ids, img_feats)
    proj = model.vision_proj(img_feats)
    for b in range(2):
        for t in range(cfg.num_image_tokens):
            assert torch.allclose(h[b, t], proj[b, t])
        for t in range(7):
            assert torch.allclose(h[b, cfg.num_image_tokens + t], model.tok_emb.weight[int(text_ids[b, t])])
    print("ok")


if __name__ == "__main__":
    main()
