import torch
import torch.nn as nn


class PointerGeneratorHead(nn.Module):
    def __init__(self, hidden_size, vocab_size, max_oovs):
        super().__init__()
        self.vocab_proj = nn.Linear(hidden_size, vocab_size)
        self.gen_gate = nn.Linear(hidden_size, 1)
        self.max_oovs = max_oovs

    def forward(self, dec_state, attn, src_ext_ids):
        """Mixes the generation and copy distributions.

        Args:
            dec_state (`torch.FloatTensor` of shape `(batch_size, hidden_size)`):
                Decoder state at the current step.
            attn (`torch.FloatTensor` of shape `(batch_size, src_len)`):
                Attention weights over source positions (rows sum to 1).
            src_ext_ids (`torch.LongTensor` of shape `(batch_size, src_len)`):
                Source token ids in the extended (vocab + article OOV) vocabulary.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, vocab_size + max_oovs)`: final word distribution.
        """
        p_gen = torch.sigmoid(self.gen_gate(dec_state))
        vocab_dist = p_gen * self.vocab_proj(dec_state).softmax(dim=-1)
        extra = vocab_dist.new_zeros(vocab_dist.size(0), self.max_oovs)
        final = torch.cat([vocab_dist, extra], dim=1)
        return final.scatter_add(1, src_ext_ids, (1 - p_gen) * attn)


if __name__ == "__main__":
    torch.manual_seed(0)
    head = PointerGeneratorHead(hidden_size=16, vocab_size=10, max_oovs=3)
    dec_state = torch.randn(2, 16)
    attn = torch.randn(2, 6).softmax(dim=-1)
    src_ext_ids = torch.tensor([[4, 11, 4, 2, 11, 7], [1, 1, 12, 3, 5, 1]])
    dist = head(dec_state, attn, src_ext_ids)
    p_gen = torch.sigmoid(head.gen_gate(dec_state))
    vocab = head.vocab_proj(dec_state).softmax(dim=-1)
    for b in range(2):
        ref = [p_gen[b, 0].item() * vocab[b, v].item() for v in range(10)] + [0.0] * 3
        for j in range(6):
            ref[src_ext_ids[b, j].item()] += (1 - p_gen[b, 0].item()) * attn[b, j].item()
        for v in range(13):
            assert abs(dist[b, v].item() - ref[v]) < 1e-6
    print("ok")
