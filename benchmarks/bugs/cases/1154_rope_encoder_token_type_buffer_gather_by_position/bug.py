from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
from jaxtyping import Float, Int


@dataclass
class EncoderConfig:
    vocab_size: int = 100
    hidden_size: int = 8
    type_vocab_size: int = 2
    max_position_embeddings: int = 16  # kept for checkpoint compatibility


class RotaryEncoderEmbeddings(nn.Module):
    def __init__(self, cfg: EncoderConfig):
        super().__init__()
        self.word_embeddings = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.token_type_embeddings = nn.Embedding(cfg.type_vocab_size, cfg.hidden_size)
        self.register_buffer(
            "token_type_ids", torch.zeros(1, cfg.max_position_embeddings, dtype=torch.long), persistent=False
        )

    def forward(
        self,
        input_ids: Int[torch.Tensor, "batch seq"],
        position_ids: Int[torch.Tensor, "batch seq"],
        token_type_ids: Optional[Int[torch.Tensor, "batch seq"]] = None,
    ) -> Float[torch.Tensor, "batch seq hidden"]:
        if token_type_ids is None:
            buffered: Int[torch.Tensor, "batch max_pos"] = self.token_type_ids.expand(position_ids.shape[0], -1)
            token_type_ids = torch.gather(buffered, dim=1, index=position_ids)
        return self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)


def encode(emb: RotaryEncoderEmbeddings, input_ids: Int[torch.Tensor, "batch seq"]) -> Float[torch.Tensor, "batch seq hidden"]:
    seq = input_ids.shape[1]
    position_ids = torch.arange(seq).unsqueeze(0).expand_as(input_ids)
    return emb(input_ids, position_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = EncoderConfig()
    emb = RotaryEncoderEmbeddings(cfg)
    long_doc = torch.randint(0, cfg.vocab_size, (2, 24))
    print(encode(emb, long_doc).shape)
