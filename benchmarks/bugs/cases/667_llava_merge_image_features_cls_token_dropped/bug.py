from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class VisionConfig:
    image_size: int = 32
    patch_size: int = 8
    hidden_size: int = 16
    feature_select_strategy: str = "default"   # "default" drops the CLS token, "full" keeps it


@dataclass
class ProcessorConfig:
    image_token_id: int = 99
    # one placeholder per vision token: (32 // 8) ** 2 patches + CLS
    image_seq_length: int = (32 // 8) ** 2 + 1


class TinyVisionTower(nn.Module):
    def __init__(self, cfg: VisionConfig):
        super().__init__()
        self.cfg = cfg
        self.patch = nn.Conv2d(3, cfg.hidden_size, cfg.patch_size, cfg.patch_size)
        self.cls = nn.Parameter(torch.randn(1, 1, cfg.hidden_size))

    def forward(self, pixel_values):
        x = self.patch(pixel_values).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.size(0), -1, -1), x], dim=1)
        return x[:, 1:] if self.cfg.feature_select_strategy == "default" else x


def merge_image_features(input_ids, inputs_embeds, image_features, image_token_id):
    """
    Args:
        input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`)
        inputs_embeds (`torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`)
        image_features (`torch.FloatTensor` of shape `(num_images, tokens_per_image, hidden_size)`)
    Returns:
        `torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`
    """
    special_image_mask = (input_ids == image_token_id).unsqueeze(-1).expand_as(inputs_embeds)
    return inputs_embeds.masked_scatter(special_image_mask, image_features.to(inputs_embeds.dtype))


def build_prompt(proc: ProcessorConfig, text_before, text_after):
    return text_before + [proc.image_token_id] * proc.image_seq_length + text_after


if __name__ == "__main__":
    torch.manual_seed(0)
    vcfg, pcfg = VisionConfig(), ProcessorConfig()
    tower, embed = TinyVisionTower(vcfg), nn.Embedding(128, vcfg.hidden_size)
    ids = torch.tensor([build_prompt(pcfg, [1, 5, 7], [8, 2]), build_prompt(pcfg, [1, 9, 4], [3, 2])])
    pixels = torch.randn(2, 3, vcfg.image_size, vcfg.image_size)
    merged = merge_image_features(ids, embed(ids), tower(pixels), pcfg.image_token_id)
    print("merged", tuple(merged.shape))
