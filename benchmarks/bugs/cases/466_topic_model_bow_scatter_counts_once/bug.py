import torch
from torch import nn

PAD = 0


def collate_docs(docs):
    # docs: list of token-id lists  ->  ids [B, L] padded with PAD
    L = max(len(d) for d in docs)
    ids = torch.full((len(docs), L), PAD, dtype=torch.long)
    for i, d in enumerate(docs):
        ids[i, : len(d)] = torch.tensor(d)
    return ids


class BagOfWordsEncoder(nn.Module):
    """ProdLDA-style encoder: term counts -> (mu, logvar) of the topic posterior."""

    def __init__(self, vocab_size, num_topics, hidden=64):
        super().__init__()
        self.vocab_size = vocab_size
        self.mlp = nn.Sequential(nn.Linear(vocab_size, hidden), nn.Softplus())
        self.mu = nn.Linear(hidden, num_topics)
        self.logvar = nn.Linear(hidden, num_topics)

    def term_counts(self, ids):
        # ids: [B, L] -> counts: [B, V]
        counts = torch.zeros(ids.shape[0], self.vocab_size)
        counts.scatter_(1, ids, 1.0)
        counts[:, PAD] = 0.0
        return counts

    def forward(self, ids):
        h = self.mlp(self.term_counts(ids))
        return self.mu(h), self.logvar(h)


if __name__ == "__main__":
    torch.manual_seed(0)
    docs = [[5, 9, 9, 9, 12, 5], [3, 3, 7], [11, 2, 11, 11, 11, 4, 2]]
    ids = collate_docs(docs)
    enc = BagOfWordsEncoder(vocab_size=16, num_topics=4)
    counts = enc.term_counts(ids)
    print("document lengths      :", [len(d) for d in docs])
    print("total counts per doc  :", counts.sum(1).tolist())
    print("count of token 11, doc 2:", counts[2, 11].item())
    mu, logvar = enc(ids)
    print("topic means:", tuple(mu.shape))
