import torch
import torch.nn as nn
import torch.nn.functional as F


class CopyGenerator(nn.Module):
    """Mixes a vocabulary softmax with a copy distribution over the source words."""

    def __init__(self, hidden, vocab_size):
        super().__init__()
        self.proj = nn.Linear(hidden, vocab_size)
        self.gate = nn.Linear(hidden, 1)
        self.vocab_size = vocab_size

    def forward(self, dec_state, attn, src_ids):
        # dec_state: (B, H)   attn: (B, S) sums to 1 over S   src_ids: (B, S) vocab ids
        p_vocab = F.softmax(self.proj(dec_state), dim=-1)          # (B, V)
        p_gen = torch.sigmoid(self.gate(dec_state))                 # (B, 1)
        copy_dist = torch.zeros_like(p_vocab)                        # (B, V)
        rows = torch.arange(src_ids.size(0)).unsqueeze(1).expand_as(src_ids)  # (B, S)
        copy_dist.index_put_((rows, src_ids), attn, accumulate=True)
        return p_gen * p_vocab + (1 - p_gen) * copy_dist, copy_dist


if __name__ == "__main__":
    torch.manual_seed(0)
    B, S, H, V = 2, 6, 16, 20
    gen = CopyGenerator(H, V)
    dec_state = torch.randn(B, H)
    attn = F.softmax(torch.randn(B, S), dim=-1)
    src_ids = torch.tensor([[4, 7, 4, 9, 4, 2], [3, 3, 5, 6, 8, 1]])
    final, copy_dist = gen(dec_state, attn, src_ids)
    for b in range(B):
        ref = [0.0] * V
        for s in range(S):
            ref[int(src_ids[b, s])] += float(attn[b, s])
        for v in range(V):
            assert abs(copy_dist[b, v].item() - ref[v]) < 1e-6
    assert torch.allclose(final.sum(-1), torch.ones(B), atol=1e-5)
    print("ok")
