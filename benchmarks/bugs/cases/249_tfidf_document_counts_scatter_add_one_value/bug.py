import math

import torch
import torch.nn as nn


def term_counts(token_ids, vocab_size):
    """
    Counts how often each vocabulary entry occurs in a document.

    Args:
        token_ids (`torch.LongTensor` of shape `(num_tokens,)`): the document's token ids.
        vocab_size (`int`): size of the vocabulary.

    Returns:
        `torch.FloatTensor` of shape `(vocab_size,)`.
    """
    counts = torch.zeros(vocab_size)
    counts.scatter_add_(0, token_ids, torch.ones(1))
    return counts


class TfidfEncoder(nn.Module):
    """Sparse TF-IDF document vectors followed by a learned projection."""

    def __init__(self, vocab_size, dim):
        super().__init__()
        self.vocab_size = vocab_size
        self.register_buffer("idf", torch.ones(vocab_size))
        self.proj = nn.Linear(vocab_size, dim, bias=False)

    def fit_idf(self, corpus):
        """
        Args:
            corpus (`list` of `torch.LongTensor`, each of shape `(num_tokens,)`)
        """
        doc_freq = torch.zeros(self.vocab_size)
        for doc in corpus:
            doc_freq += (term_counts(doc, self.vocab_size) > 0).float()
        self.idf = torch.log((1 + len(corpus)) / (1 + doc_freq)) + 1

    def forward(self, doc):
        """
        Args:
            doc (`torch.LongTensor` of shape `(num_tokens,)`)

        Returns:
            `torch.FloatTensor` of shape `(dim,)`
        """
        tf = term_counts(doc, self.vocab_size)
        tfidf = tf * self.idf
        return self.proj(tfidf / tfidf.norm().clamp(min=1e-8))


if __name__ == "__main__":
    torch.manual_seed(0)
    corpus = [torch.tensor([1, 4, 4, 2, 7]), torch.tensor([3, 3, 3, 0]), torch.tensor([4, 5, 6, 1, 1, 2])]
    encoder = TfidfEncoder(vocab_size=8, dim=3)
    encoder.fit_idf(corpus)
    with torch.no_grad():
        vectors = torch.stack([encoder(doc) for doc in corpus])
    print("document vectors:", [[round(v, 4) for v in row] for row in vectors.tolist()])
