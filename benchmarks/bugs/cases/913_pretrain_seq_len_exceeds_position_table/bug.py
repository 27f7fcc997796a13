import torch
import torch.nn as nn
from dataclasses import dataclass


@dataclass
class DiscriminatorConfig:
    vocab_size: int = 1000
    embedding_size: int = 64
    max_position_embeddings: int = 512


class ElectraEmbeddings(nn.Module):
    def __init__(self, cfg: DiscriminatorConfig):
        super().__init__()
        self.word = nn.Embedding(cfg.vocab_size, cfg.embedding_size)
        self.position = nn.Embedding(cfg.max_position_embeddings, cfg.embedding_size)
        self.norm = nn.LayerNorm(cfg.embedding_size)

    def forward(self, input_ids):
        seq_len = input_ids.size(1)
        position_ids = torch.arange(seq_len, device=input_ids.device).unsqueeze(0)
        x = self.word(input_ids) + self.position(position_ids)
        return self.norm(x)


def make_batch(batch_size, max_seq_length, vocab_size):
    return torch.randint(5, vocab_size, (batch_size, max_seq_length))


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = DiscriminatorConfig(embedding_size=768)
    emb = ElectraEmbeddings(cfg)
    batch = make_batch(2, 768, cfg.vocab_size)
    out = emb(batch)
    print(out.shape)
