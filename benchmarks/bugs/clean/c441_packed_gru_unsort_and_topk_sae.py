import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class PackedEncoder(nn.Module):
    def __init__(self, vocab, embed, hidden):
        super().__init__()
        self.embedding = nn.Embedding(vocab, embed, padding_idx=0)
        self.rnn = nn.GRU(embed, hidden, batch_first=True, bidirectional=True, num_layers=2)

    def forward(self, tokens, lengths):
        # tokens: [B, T]  lengths: [B]
        sorted_len, order = lengths.sort(descending=True)
        packed = pack_padded_sequence(self.embedding(tokens[order]), sorted_len.tolist(), batch_first=True)
        _, h_n = self.rnn(packed)  # h_n: [layers * 2, B, H], batch on dim 1
        restore = order.argsort()
        h_n = h_n.index_select(1, restore)
        return h_n[-2:].transpose(0, 1).reshape(tokens.size(0), -1)  # last layer fw|bw: [B, 2H]


def topk_codes(acts, k):
    # acts: [B, S, D] -> keep the k largest entries of every token's D-vector
    flat = acts.reshape(-1, acts.size(-1))  # [B*S, D]
    vals, idx = flat.topk(k, dim=-1)  # [B*S, k]
    sparse = torch.zeros_like(flat).scatter(-1, idx, vals)
    return sparse.view_as(acts)


def chosen_logp(logits, actions):
    # logits: [B, A]  actions: [B] -> [B]
    return logits.log_softmax(-1).gather(1, actions.unsqueeze(1)).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    enc = PackedEncoder(30, 8, 10)
    tokens = torch.randint(1, 30, (5, 6))
    lengths = torch.tensor([3, 6, 2, 5, 4])
    tokens = tokens * (torch.arange(6) < lengths[:, None])
    with torch.no_grad():
        out = enc(tokens, lengths)
        for i in range(5):
            _, h = enc.rnn(enc.embedding(tokens[i : i + 1, : int(lengths[i])]))
            assert torch.allclose(out[i], torch.cat([h[-2, 0], h[-1, 0]]), atol=1e-5)

    acts = torch.randn(2, 3, 12)
    codes = topk_codes(acts, 4)
    for b in range(2):
        for s in range(3):
            keep = sorted(range(12), key=lambda j: -acts[b, s, j].item())[:4]
            for j in range(12):
                expect = acts[b, s, j].item() if j in keep else 0.0
                assert codes[b, s, j].item() == expect

    logits, actions = torch.randn(7, 4), torch.randint(0, 4, (7,))
    lp = chosen_logp(logits, actions)
    assert lp.shape == (7,)
    for i in range(7):
        assert abs(lp[i].item() - torch.log_softmax(logits[i], 0)[actions[i]].item()) < 1e-6
    print("ok")
