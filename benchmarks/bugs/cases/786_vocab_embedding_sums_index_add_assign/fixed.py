import torch
import torch.nn as nn


class TokenPrototypeBank:
    """Running mean of contextual hidden states per vocabulary id."""

    def __init__(self, vocab_size, hidden):
        self.sums = torch.zeros(vocab_size, hidden)   # [V, H]
        self.counts = torch.zeros(vocab_size)          # [V]

    @torch.no_grad()
    def update(self, token_ids, hidden_states, attention_mask):
        # token_ids: [B, T], hidden_states: [B, T, H], attention_mask: [B, T]
        keep = attention_mask.bool()
        ids = token_ids[keep]                          # [N]
        vecs = hidden_states[keep]                     # [N, H]
        self.sums.index_add_(0, ids, vecs)
        self.counts.index_add_(0, ids, torch.ones_like(ids, dtype=self.counts.dtype))

    def prototypes(self):
        return self.sums / self.counts.clamp_min(1).unsqueeze(1)   # [V, H]


def reference_prototypes(vocab, hidden, token_ids, hidden_states, attention_mask):
    sums = [[0.0] * hidden for _ in range(vocab)]
    counts = [0] * vocab
    for b in range(token_ids.size(0)):
        for t in range(token_ids.size(1)):
            if attention_mask[b, t]:
                v = int(token_ids[b, t])
                counts[v] += 1
                for h in range(hidden):
                    sums[v][h] += float(hidden_states[b, t, h])
    return torch.tensor([[s / max(c, 1) for s in row] for row, c in zip(sums, counts)])


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, hidden = 12, 4
    encoder = nn.Sequential(nn.Embedding(vocab, hidden), nn.Linear(hidden, hidden))
    token_ids = torch.tensor([[3, 5, 3, 7, 0], [5, 5, 9, 3, 0]])   # [B, T]
    attention_mask = torch.tensor([[1, 1, 1, 1, 0], [1, 1, 1, 1, 0]])
    with torch.no_grad():
        hidden_states = encoder(token_ids) + 0.1 * torch.randn(2, 5, hidden)
    bank = TokenPrototypeBank(vocab, hidden)
    bank.update(token_ids, hidden_states, attention_mask)
    ref = reference_prototypes(vocab, hidden, token_ids, hidden_states, attention_mask)
    assert torch.allclose(bank.prototypes(), ref, atol=1e-5)
    assert bank.counts[3].item() == 3
    print("ok")
