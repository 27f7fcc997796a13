import torch
import torch.nn as nn


def collate(samples, pad_id=0):
    max_len = max(len(s["input_ids"]) for s in samples)
    input_ids = torch.full((len(samples), max_len), pad_id, dtype=torch.long)
    word_ids = torch.zeros(len(samples), max_len, dtype=torch.long)
    for b, s in enumerate(samples):
        n = len(s["input_ids"])
        input_ids[b, :n] = torch.tensor(s["input_ids"])
        word_ids[b, :n] = torch.tensor(s["word_ids"])
    num_words = torch.tensor([max(s["word_ids"]) + 1 for s in samples])
    return input_ids, word_ids, num_words


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(100, 16, padding_idx=0)
        self.encoder = nn.Linear(16, 16)

    def word_features(self, input_ids, word_ids, num_words):
        hidden = torch.tanh(self.encoder(self.embedding(input_ids)))
        B, L, H = hidden.shape
        W = int(num_words.max())
        sums = hidden.new_zeros(B, W, H)
        real = (input_ids != 0).unsqueeze(-1).to(hidden.dtype)
        sums.scatter_add_(1, word_ids.unsqueeze(-1).expand(B, L, H), hidden * real)
        counts = hidden.new_zeros(B, W).scatter_add_(1, word_ids, (input_ids != 0).to(hidden.dtype))
        return sums / counts.clamp(min=1).unsqueeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    samples = [
        {"input_ids": [5, 17, 18, 42, 7], "word_ids": [0, 1, 1, 2, 3]},
        {"input_ids": [9, 33], "word_ids": [0, 1]},
    ]
    model = FeatureExtractor()
    feats = model.word_features(*collate(samples))
    with torch.no_grad():
        for b, s in enumerate(samples):
            for w in range(max(s["word_ids"]) + 1):
                rows = [torch.tanh(model.encoder(model.embedding.weight[t]))
                        for t, wi in zip(s["input_ids"], s["word_ids"]) if wi == w]
                assert torch.allclose(feats[b, w], sum(rows) / len(rows), atol=1e-5)
    print("ok")
