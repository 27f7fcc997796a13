from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class VLMConfig:
    image_size: int = 32
    patch_size: int = 8
    pool: int = 2
    hidden: int = 16
    vocab: int = 50
    image_token_id: int = 49


class TinyVLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.patch = nn.Conv2d(3, cfg.hidden, cfg.patch_size, stride=cfg.patch_size)
        self.embed = nn.Embedding(cfg.vocab, cfg.hidden)

    def image_features(self, pixel_values):
        grid = self.patch(pixel_values)
        grid = F.avg_pool2d(grid, self.cfg.pool)
        return grid.flatten(2).transpose(1, 2)

    def merge(self, input_ids, pixel_values):
        """Place projected image features at the image-token positions.

        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`):
                Text ids with `image_token_id` placeholders.
            pixel_values (`torch.FloatTensor` of shape `(num_images, 3, image_size, image_size)`):
                One image per sample.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, seq_len, hidden)`.
        """
        embeds = self.embed(input_ids)
        feats = self.image_features(pixel_values)
        mask = (input_ids == self.cfg.image_token_id).unsqueeze(-1).expand_as(embeds)
        return embeds.masked_scatter(mask, feats.to(embeds.dtype))


def build_prompt(cfg, text_ids):
    n_image_tokens = (cfg.image_size // cfg.patch_size // cfg.pool) ** 2
    return [cfg.image_token_id] * n_image_tokens + text_ids


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = VLMConfig()
    model = TinyVLM(cfg)
    ids = torch.tensor([build_prompt(cfg, [3, 4, 5]), build_prompt(cfg, [6, 7, 8])])
    pix = torch.randn(2, 3, 32, 32)
    out = model.merge(ids, pix)
    feats = model.image_features(pix)
    emb = model.embed(ids)
    for b in range(2):
        k = 0
        for t in range(ids.size(1)):
            if int(ids[b, t]) == cfg.image_token_id:
                assert torch.allclose(out[b, t], feats[b, k]); k += 1
            else:
                assert torch.allclose(out[b, t], emb[b, t])
        assert k == feats.size(1)
    print("ok")
