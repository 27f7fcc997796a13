import torch
import torch.nn as nn


class BagOfWordCountsEmbedder(nn.Module):
    """Represents each document by the counts of its words.

    Args:
        vocab_size: number of word types; id 0 is padding.
        projection_dim: if given, counts are projected with a linear layer.

    Forward args:
        tokens: ``(batch_size, num_tokens)`` word ids, padded with 0.

    Returns:
        ``(batch_size, vocab_size)`` word frequencies (or
        ``(batch_size, projection_dim)`` when projecting).
    """

    def __init__(self, vocab_size, projection_dim=None):
        super().__init__()
        self.vocab_size = vocab_size
        self.projection = nn.Linear(vocab_size, projection_dim) if projection_dim else None

    def compute_bow(self, tokens):
        bow = torch.zeros(tokens.size(0), self.vocab_size, dtype=torch.float32)
        bow.scatter_(1, tokens, 1.0)
        bow[:, 0] = 0.0
        return bow

    def forward(self, tokens):
        bow = self.compute_bow(tokens)
        return self.projection(bow) if self.projection is not None else bow


def tokenize(docs, vocab):
    width = max(len(d.split()) for d in docs)
    ids = [[vocab[w] for w in d.split()] + [0] * (width - len(d.split())) for d in docs]
    return torch.tensor(ids)


if __name__ == "__main__":
    docs = ["the cat saw the other cat", "a dog"]
    vocab = {"<pad>": 0}
    for d in docs:
        for w in d.split():
            vocab.setdefault(w, len(vocab))
    embedder = BagOfWordCountsEmbedder(vocab_size=len(vocab))
    counts = embedder(tokenize(docs, vocab))
    print("count of 'the':", counts[0, vocab["the"]].item(), " count of 'cat':", counts[0, vocab["cat"]].item())
