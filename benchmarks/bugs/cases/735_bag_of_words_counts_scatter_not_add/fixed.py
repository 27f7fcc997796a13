import torch
import torch.nn as nn


class BowTopicEncoder(nn.Module):
    def __init__(self, vocab_size, n_topics, pad_id=0):
        super().__init__()
        self.vocab_size = vocab_size
        self.pad_id = pad_id
        self.proj = nn.Linear(vocab_size, n_topics)

    def bag_of_words(self, token_ids):
        # token_ids: [B, L] (padded with pad_id)
        counts = torch.zeros(token_ids.size(0), self.vocab_size)  # [B, V]
        ones = (token_ids != self.pad_id).float()  # [B, L]
        counts.scatter_add_(1, token_ids, ones)  # [B, V] term frequencies
        return counts

    def forward(self, token_ids):
        # token_ids: [B, L] -> topic proportions [B, K]
        bow = self.bag_of_words(token_ids)
        return torch.softmax(self.proj(torch.log1p(bow)), dim=-1)


if __name__ == "__main__":
    docs = torch.tensor([[5, 3, 5, 5, 2, 0, 0],
                         [1, 1, 4, 6, 6, 6, 6]])  # [2, 7]
    enc = BowTopicEncoder(vocab_size=8, n_topics=3)
    bow = enc.bag_of_words(docs)
    for b in range(docs.size(0)):
        ref = [0.0] * 8
        for t in docs[b].tolist():
            if t != 0:
                ref[t] += 1.0
        assert bow[b].tolist() == ref, (bow[b].tolist(), ref)
    print("ok")
