import torch
import torch.nn as nn


class PackedEncoder(nn.Module):
    def __init__(self, vocab=30, dim=8, hidden=6, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.rnn = nn.GRU(dim, hidden, num_layers=layers, bidirectional=True, batch_first=True)

    def forward(self, tokens, lengths):
        # tokens: (B, T) padded, lengths: (B,)
        sorted_len, order = lengths.sort(descending=True)
        unsort = order.argsort()
        packed = nn.utils.rnn.pack_padded_sequence(self.emb(tokens[order]), sorted_len, batch_first=True)
        out, h_n = self.rnn(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)  # (B, T, 2H), sorted order
        out = out.index_select(0, unsort)  # batch-first output: batch is dim 0
        h_n = h_n.index_select(1, unsort)  # h_n: (layers * 2, B, H), batch is dim 1
        return out, torch.cat([h_n[-2], h_n[-1]], dim=-1)  # (B, T, 2H), (B, 2H)


def resample_sequences(x, seq_idx):
    # x: (T, B, F) time-major; seq_idx: (B,) sequences drawn with replacement
    T, B, F = x.shape
    return torch.gather(x, 1, seq_idx.view(1, B, 1).expand(T, B, F))


def last_valid_step(x, lengths):
    # x: (T, B, F) time-major; lengths: (B,) -> (B, F) state at step lengths - 1
    T, B, F = x.shape
    idx = (lengths - 1).view(1, B, 1).expand(1, B, F)
    return x.gather(0, idx).squeeze(0)


if __name__ == "__main__":
    torch.manual_seed(0)
    enc = PackedEncoder()
    lengths = torch.tensor([3, 7, 5, 2, 6])
    tokens = torch.zeros(5, 7, dtype=torch.long)
    for i, n in enumerate(lengths.tolist()):
        tokens[i, :n] = torch.randint(1, 30, (n,))
    out, summary = enc(tokens, lengths)
    with torch.no_grad():
        for i, n in enumerate(lengths.tolist()):
            o_i, h_i = enc.rnn(enc.emb(tokens[i:i + 1, :n]))
            assert torch.allclose(out[i, :n], o_i[0], atol=1e-5)
            assert torch.allclose(summary[i], torch.cat([h_i[-2, 0], h_i[-1, 0]]), atol=1e-5)
    x = torch.randn(9, 5, 4)
    seq_idx = torch.randint(0, 5, (5,))
    r = resample_sequences(x, seq_idx)
    last = last_valid_step(x, lengths)
    for b in range(5):
        for t in range(9):
            assert torch.equal(r[t, b], x[t, seq_idx[b]])
        assert torch.equal(last[b], x[lengths[b] - 1, b])
    print("ok")
