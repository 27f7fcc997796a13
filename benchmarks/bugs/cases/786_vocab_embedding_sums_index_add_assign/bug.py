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
        self.sums[ids] += vecs
        self.counts[ids] += 1

    def prototypes(self):
        return self.sums / self.counts.clamp_min(1).unsqueeze(1)   # [V, H]


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
    print("count of id 3:", bank.counts[3].item(), "(appears 3 times)")
    print("prototype of id 5:", bank.prototypes()[5].tolist())
