import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int


class PointerGeneratorHead(nn.Module):
    def __init__(self, hidden: int, vocab_size: int):
        super().__init__()
        self.vocab_size = vocab_size
        self.out = nn.Linear(2 * hidden, vocab_size)
        self.p_gen = nn.Linear(2 * hidden, 1)

    def forward(
        self,
        dec_state: Float[torch.Tensor, "batch hidden"],
        context: Float[torch.Tensor, "batch hidden"],
        attn: Float[torch.Tensor, "batch src_len"],
        src_ext_ids: Int[torch.Tensor, "batch src_len"],
        n_oov: int,
    ) -> Float[torch.Tensor, "batch ext_vocab"]:
        feats = torch.cat([dec_state, context], dim=-1)
        p_gen = torch.sigmoid(self.p_gen(feats))
        vocab_dist = p_gen * F.softmax(self.out(feats), dim=-1)
        copy_dist = (1.0 - p_gen) * attn
        extra = vocab_dist.new_zeros(vocab_dist.size(0), n_oov)
        final = torch.cat([vocab_dist, extra], dim=-1)
        return final.scatter_(1, src_ext_ids, copy_dist)


if __name__ == "__main__":
    torch.manual_seed(0)
    head = PointerGeneratorHead(hidden=32, vocab_size=50)
    src_ext_ids = torch.tensor([[4, 17, 4, 50, 9, 50, 4], [3, 8, 21, 22, 51, 7, 30]])
    attn = F.softmax(torch.randn(2, 7), dim=-1)
    final = head(torch.randn(2, 32), torch.randn(2, 32), attn, src_ext_ids, n_oov=2)
    print("sum of final distribution per example:", final.sum(dim=-1))
