from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class EncoderConfig:
    vocab_size: int = 120
    hidden_size: int = 16
    pad_token_id: int = 3
    max_seq_length: int = 32
    max_position_embeddings: int = 34


def create_position_ids(input_ids, padding_idx):
    mask = input_ids.ne(padding_idx).int()
    incremental = torch.cumsum(mask, dim=1).type_as(mask) * mask
    return incremental.long() + padding_idx


class EncoderEmbeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.padding_idx = config.pad_token_id
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=self.padding_idx)
        num_positions = max(config.max_position_embeddings, config.max_seq_length + self.padding_idx + 1)
        self.position_embeddings = nn.Embedding(num_positions, config.hidden_size,
                                                padding_idx=self.padding_idx)
        self.norm = nn.LayerNorm(config.hidden_size)

    def forward(self, input_ids):
        position_ids = create_position_ids(input_ids, self.padding_idx)
        words = self.word_embeddings(input_ids)
        positions = self.position_embeddings(position_ids)
        return self.norm(words + positions)


def encode_batch(texts, config):
    rows = []
    for ids in texts:
        ids = ids[: config.max_seq_length]
        rows.append(ids + [config.pad_token_id] * (config.max_seq_length - len(ids)))
    return torch.tensor(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = EncoderConfig()
    emb = EncoderEmbeddings(config)
    texts = [list(range(10, 50)), list(range(10, 30))]
    ids = encode_batch(texts, config)
    out = emb(ids)
    P = emb.position_embeddings.weight
    for b in range(ids.size(0)):
        pos = 0
        for t in range(ids.size(1)):
            tok = int(ids[b, t])
            if tok == config.pad_token_id:
                p = config.pad_token_id
            else:
                pos += 1
                p = pos + config.pad_token_id
            want = emb.norm(emb.word_embeddings.weight[tok] + P[p])
            assert torch.allclose(out[b, t], want, atol=1e-5)
    print("ok")
