from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class EncoderConfig:
    vocab_size: int = 1000
    hidden_size: int = 32
    max_position_embeddings: int = 64
    pad_token_id: int = 1
    max_seq_length: int = 64


def create_position_ids_from_input_ids(input_ids, padding_idx):
    """Positions start at padding_idx + 1; padding tokens get padding_idx.

    Args:
        input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`): token ids.
        padding_idx (`int`): id of the padding token.

    Returns:
        `torch.LongTensor` of shape `(batch_size, seq_len)`.
    """
    mask = input_ids.ne(padding_idx).long()
    return torch.cumsum(mask, dim=1) * mask + padding_idx


class Embeddings(nn.Module):
    def __init__(self, config: EncoderConfig):
        super().__init__()
        self.padding_idx = config.pad_token_id
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size, padding_idx=self.padding_idx)
        self.position_embeddings = nn.Embedding(
            config.max_position_embeddings, config.hidden_size, padding_idx=self.padding_idx
        )

    def forward(self, input_ids):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`).

        Returns:
            `torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`.
        """
        position_ids = create_position_ids_from_input_ids(input_ids, self.padding_idx)
        return self.word_embeddings(input_ids) + self.position_embeddings(position_ids)


def tokenize_batch(docs, config):
    ids = [[(sum(map(ord, w)) % (config.vocab_size - 2)) + 2 for w in d.split()][: config.max_seq_length] for d in docs]
    width = max(len(x) for x in ids)
    return torch.tensor([x + [config.pad_token_id] * (width - len(x)) for x in ids])


if __name__ == "__main__":
    config = EncoderConfig()
    docs = ["short review text", " ".join(f"w{i}" for i in range(200))]
    batch = tokenize_batch(docs, config)
    out = Embeddings(config)(batch)
    print(out.shape)
