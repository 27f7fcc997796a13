import torch
import torch.nn as nn


def collate_tokens(batch, pad_id=0):
    # batch: list of (subword ids, word index of every subword)
    max_len = max(len(ids) for ids, _ in batch)
    input_ids = torch.full((len(batch), max_len), pad_id, dtype=torch.long)   # [B, L]
    num_words = max(max(words) for _, words in batch) + 1
    # padding positions go to an extra bucket (index num_words) that is dropped after pooling
    word_index = torch.full((len(batch), max_len), num_words, dtype=torch.long)  # [B, L]
    attention_mask = torch.zeros(len(batch), max_len, dtype=torch.long)       # [B, L]
    for b, (ids, words) in enumerate(batch):
        input_ids[b, : len(ids)] = torch.tensor(ids)
        word_index[b, : len(words)] = torch.tensor(words)
        attention_mask[b, : len(ids)] = 1
    return input_ids, word_index, attention_mask, num_words


class ScatterSubwordPooler(nn.Module):
    def forward(self, hidden, word_index, num_words):
        # hidden: [B, L, H], word_index: [B, L] -> word vectors [B, W, H]
        b, _, h = hidden.shape
        sums = hidden.new_zeros(b, num_words + 1, h)
        sums.scatter_add_(1, word_index.unsqueeze(-1).expand(-1, -1, h), hidden)
        counts = hidden.new_zeros(b, num_words + 1)
        counts.scatter_add_(1, word_index, torch.ones_like(hidden[..., 0]))
        return (sums / counts.clamp(min=1).unsqueeze(-1))[:, :num_words]


class TaggerEncoder(nn.Module):
    def __init__(self, vocab=100, hidden=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.pool = ScatterSubwordPooler()

    def forward(self, input_ids, word_index, attention_mask, num_words):
        hidden = self.embed(input_ids) * attention_mask.unsqueeze(-1)
        return self.pool(hidden, word_index, num_words)


if __name__ == "__main__":
    torch.manual_seed(0)
    batch = [([5, 17, 18, 40, 41, 42], [0, 1, 1, 2, 2, 2]), ([7, 9], [0, 1])]
    enc = TaggerEncoder()
    with torch.no_grad():
        words = enc(*collate_tokens(batch))
        for b, (ids, widx) in enumerate(batch):
            for w in range(words.size(1)):
                members = [enc.embed.weight[ids[k]] for k in range(len(ids)) if widx[k] == w]
                ref = sum(members) / len(members) if members else torch.zeros(8)
                assert torch.allclose(words[b, w], ref, atol=1e-6)
    print("ok")
