from dataclasses import dataclass

import torch
import torch.nn as nn

NODE_TYPES = {"word": 0, "entity": 1, "relation": 2}


@dataclass
class EncoderConfig:
    vocab_size: int = 120
    hidden_size: int = 16
    max_position_embeddings: int = 32
    type_vocab_size: int = len(NODE_TYPES)  # word / entity / relation


class GraphTextEmbeddings(nn.Module):
    def __init__(self, config: EncoderConfig):
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)
        self.norm = nn.LayerNorm(config.hidden_size)

    def forward(self, input_ids, token_type_ids, position_ids):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`): word, entity and relation ids.
            token_type_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`): node type of every position.
            position_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`): soft positions in the word-knowledge graph.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`.
        """
        types = self.token_type_embeddings(token_type_ids)
        return self.norm(self.word_embeddings(input_ids) + self.position_embeddings(position_ids) + types)


def collate_graph_batch(samples):
    ids = torch.tensor([[tok for tok, _ in s] for s in samples])
    types = torch.tensor([[NODE_TYPES[kind] for _, kind in s] for s in samples])
    pos = torch.arange(ids.size(1)).expand_as(ids)
    return ids, types, pos


if __name__ == "__main__":
    torch.manual_seed(0)
    samples = [
        [(5, "word"), (9, "word"), (70, "entity"), (101, "relation"), (71, "entity")],
        [(6, "word"), (7, "word"), (8, "word"), (72, "entity"), (102, "relation")],
    ]
    emb = GraphTextEmbeddings(EncoderConfig())
    ids, types, pos = collate_graph_batch(samples)
    out = emb(ids, types, pos)
    for b, s in enumerate(samples):
        for t, (tok, kind) in enumerate(s):
            x = emb.word_embeddings.weight[tok] + emb.position_embeddings.weight[t] + emb.token_type_embeddings.weight[NODE_TYPES[kind]]
            ref = emb.norm(x)
            assert torch.allclose(out[b, t], ref, atol=1e-6)
    print("ok")
