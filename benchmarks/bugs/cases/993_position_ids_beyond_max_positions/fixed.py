import torch
import torch.nn as nn


class EncoderConfig:
    def __init__(self, vocab_size=100, hidden_size=16, max_position_embeddings=32, type_vocab_size=2):
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.max_position_embeddings = max_position_embeddings
        self.type_vocab_size = type_vocab_size


class Embeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)

    def forward(self, input_ids, token_type_ids=None, position_ids=None):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                Indices of input sequence tokens in the vocabulary.
            token_type_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`, *optional*):
                Segment token indices.
            position_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`, *optional*):
                Indices of positions of each input sequence token in the position embeddings.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, sequence_length, hidden_size)`.
        """
        seq_length = input_ids.size(1)
        if position_ids is None:
            position_ids = torch.arange(seq_length, dtype=torch.long).unsqueeze(0).expand_as(input_ids)
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        words = self.word_embeddings(input_ids)
        positions = self.position_embeddings(position_ids)
        types = self.token_type_embeddings(token_type_ids)
        return words + positions + types


def encode_documents(docs, max_length):
    """Tokenize whitespace-split docs into id tensors of shape `(batch_size, max_length)`."""
    rows = []
    for doc in docs:
        ids = [1] + [(hash(w) % 90) + 5 for w in doc.split()][: max_length - 2] + [2]
        rows.append(ids + [0] * (max_length - len(ids)))
    return torch.tensor(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = EncoderConfig()
    data_args = {"max_seq_length": min(48, config.max_position_embeddings)}
    docs = [" ".join(["hello", "world"] * 30), "short document here"]
    input_ids = encode_documents(docs, data_args["max_seq_length"])
    emb = Embeddings(config)
    out = emb(input_ids)
    for b in range(input_ids.shape[0]):
        for t in range(input_ids.shape[1]):
            ref = emb.word_embeddings.weight[int(input_ids[b, t])] + emb.position_embeddings.weight[t] + emb.token_type_embeddings.weight[0]
            assert torch.allclose(out[b, t], ref, atol=1e-6)
    print("ok")
