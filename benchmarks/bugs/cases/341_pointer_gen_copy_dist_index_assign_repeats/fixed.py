import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class PointerGeneratorHead(nn.Module):
    def __init__(self, hidden: int, vocab_size: int):
        super().__init__()
        self.vocab_proj = nn.Linear(2 * hidden, vocab_size)
        self.p_gen_proj = nn.Linear(2 * hidden, 1)

    def forward(
        self,
        dec_state: Float[Tensor, "batch hidden"],
        enc_states: Float[Tensor, "batch src hidden"],
        src_ext_ids: Int[Tensor, "batch src"],
        n_oov: int,
    ) -> Float[Tensor, "batch ext_vocab"]:
        scores = torch.einsum("bh,bsh->bs", dec_state, enc_states)
        attn = scores.softmax(dim=-1)
        context = torch.einsum("bs,bsh->bh", attn, enc_states)
        feats = torch.cat([dec_state, context], dim=-1)
        vocab_dist = self.vocab_proj(feats).softmax(dim=-1)
        p_gen = torch.sigmoid(self.p_gen_proj(feats))
        return final_distribution(vocab_dist, attn, p_gen, src_ext_ids, n_oov)


def final_distribution(
    vocab_dist: Float[Tensor, "batch vocab"],
    attn: Float[Tensor, "batch src"],
    p_gen: Float[Tensor, "batch 1"],
    src_ext_ids: Int[Tensor, "batch src"],
    n_oov: int,
) -> Float[Tensor, "batch ext_vocab"]:
    batch_size = vocab_dist.size(0)
    gen_dist = torch.cat([p_gen * vocab_dist, vocab_dist.new_zeros(batch_size, n_oov)], dim=1)
    copy_dist = torch.zeros_like(gen_dist)
    batch_idx = torch.arange(batch_size).unsqueeze(1).expand_as(src_ext_ids)
    copy_dist.index_put_((batch_idx, src_ext_ids), (1 - p_gen) * attn, accumulate=True)
    return gen_dist + copy_dist


if __name__ == "__main__":
    torch.manual_seed(0)
    head = PointerGeneratorHead(hidden=8, vocab_size=20)
    src_ext_ids = torch.tensor([[3, 5, 3, 20, 7, 3], [20, 21, 20, 9, 9, 1]])
    dec_state, enc_states = torch.randn(2, 8), torch.randn(2, 6, 8)
    final = head(dec_state, enc_states, src_ext_ids, n_oov=2)
    attn = torch.einsum("bh,bsh->bs", dec_state, enc_states).softmax(-1)
    feats = torch.cat([dec_state, torch.einsum("bs,bsh->bh", attn, enc_states)], -1)
    vocab_dist = head.vocab_proj(feats).softmax(-1)
    p_gen = torch.sigmoid(head.p_gen_proj(feats))
    for b in range(2):
        for w in range(22):
            p = p_gen[b, 0] * vocab_dist[b, w] if w < 20 else torch.tensor(0.0)
            for i in range(6):
                if src_ext_ids[b, i] == w:
                    p = p + (1 - p_gen[b, 0]) * attn[b, i]
            assert torch.allclose(final[b, w], p, atol=1e-6)
    print("ok")
