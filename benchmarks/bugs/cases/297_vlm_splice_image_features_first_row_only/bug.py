import torch
import torch.nn as nn


def splice_image_features(ids, embeddings, features, image_token_id):
    """Replace the embedding rows at image placeholders with tower features."""
    mask = ids == image_token_id
    n_slots = int(mask.sum().item())
    if n_slots != features.shape[0]:
        raise ValueError(f"image placeholders ({n_slots}) != vision tokens ({features.shape[0]})")
    out = torch.where(mask[..., None], torch.zeros_like(embeddings), embeddings)
    positions = torch.tensor([i for i, v in enumerate(mask[0].tolist()) if v])
    scatter = torch.zeros_like(out)
    scatter[0, positions] = features.to(out.dtype)
    return out + scatter


class VisionTower(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.patch = cfg["patch"]
        self.proj = nn.Linear(3 * cfg["patch"] ** 2, cfg["hidden"])

    def forward(self, pixel_values):
        p = self.patch
        patches = pixel_values.unfold(2, p, p).unfold(3, p, p).permute(0, 2, 3, 1, 4, 5).flatten(3).flatten(1, 2)
        return self.proj(patches).flatten(0, 1)


class TinyVLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed_tokens = nn.Embedding(cfg["vocab_size"], cfg["hidden"])
        self.vision = VisionTower(cfg)
        self.lm_head = nn.Linear(cfg["hidden"], cfg["vocab_size"])

    def forward(self, ids, pixel_values):
        embeddings = self.embed_tokens(ids)
        embeddings = splice_image_features(ids, embeddings, self.vision(pixel_values), self.cfg["image_token_id"])
        return self.lm_head(torch.cumsum(embeddings, dim=1) / torch.arange(1, ids.shape[1] + 1)[:, None])


def build_prompts(texts, cfg):
    n_img = (cfg["image_size"] // cfg["patch"]) ** 2
    rows = [[cfg["bos_id"]] + [cfg["image_token_id"]] * n_img + t for t in texts]
    return torch.tensor(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab_size": 32, "hidden": 16, "patch": 4, "image_size": 8, "image_token_id": 31, "bos_id": 1}
    model = TinyVLM(cfg).eval()
    ids = build_prompts([[5, 9, 12], [7, 7, 3]], cfg)
    pixel_values = torch.randn(2, 3, 8, 8)
    with torch.no_grad():
        logits = model(ids, pixel_values)
    print("logits:", tuple(logits.shape))
