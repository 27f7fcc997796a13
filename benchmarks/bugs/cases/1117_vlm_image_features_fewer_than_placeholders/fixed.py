from dataclasses import dataclass

import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor

IMAGE_TOKEN_ID = 7


@dataclass
class ProcessorConfig:
    image_seq_len: int = 16


@dataclass
class ConnectorConfig:
    vision_dim: int = 24
    text_dim: int = 32
    resampler_n_latents: int = 8


class PerceiverConnector(nn.Module):
    def __init__(self, cfg: ConnectorConfig):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(cfg.resampler_n_latents, cfg.text_dim) * 0.02)
        self.proj = nn.Linear(cfg.vision_dim, cfg.text_dim)

    def forward(self, patches: Float[Tensor, "n_img patches vdim"]) -> Float[Tensor, "n_img latents dim"]:
        kv = self.proj(patches)
        att = torch.softmax(self.latents @ kv.transpose(1, 2), dim=-1)
        return att @ kv


def build_prompt(text_ids: list, n_images: int, cfg: ProcessorConfig) -> Int[Tensor, "seq"]:
    image_block = [IMAGE_TOKEN_ID] * cfg.image_seq_len
    return torch.tensor(image_block * n_images + text_ids)


def merge_image_features(
    inputs_embeds: Float[Tensor, "batch seq dim"],
    input_ids: Int[Tensor, "batch seq"],
    image_hidden: Float[Tensor, "n_img latents dim"],
) -> Float[Tensor, "batch seq dim"]:
    image_mask: Bool[Tensor, "batch seq dim"] = (input_ids == IMAGE_TOKEN_ID).unsqueeze(-1).expand_as(inputs_embeds)
    return inputs_embeds.masked_scatter(image_mask, image_hidden.reshape(-1, inputs_embeds.size(-1)))


if __name__ == "__main__":
    torch.manual_seed(0)
    conn_cfg = ConnectorConfig()
    proc_cfg = ProcessorConfig(image_seq_len=conn_cfg.resampler_n_latents)
    input_ids = build_prompt([101, 54, 23, 88, 102], n_images=2, cfg=proc_cfg).unsqueeze(0)
    embed = nn.Embedding(200, conn_cfg.text_dim)
    connector = PerceiverConnector(conn_cfg)
    image_hidden = connector(torch.randn(2, 49, conn_cfg.vision_dim))
    merged = merge_image_features(embed(input_ids), input_ids, image_hidden)
    print("merged sequence:", tuple(merged.shape))

    # loop reference: the k-th image placeholder takes the k-th latent row
    text = embed(input_ids)
    flat = image_hidden.reshape(-1, conn_cfg.text_dim)
    k = 0
    for t in range(input_ids.size(1)):
        if input_ids[0, t].item() == IMAGE_TOKEN_ID:
            assert torch.allclose(merged[0, t], flat[k])
            k += 1
        else:
            assert torch.allclose(merged[0, t], text[0, t])
    assert k == flat.size(0)
    print("ok")
