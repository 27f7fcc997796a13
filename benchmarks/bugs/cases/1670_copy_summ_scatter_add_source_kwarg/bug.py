import torch
import torch.nn as nn
import torch.nn.functional as F


class CopyDecoderStep(nn.Module):
    """One decoding step of a pointer-generator style abstractive summarizer."""

    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.vocab_size = vocab_size
        self.attn_w = nn.Linear(hidden, hidden, bias=False)
        self.out = nn.Linear(2 * hidden, vocab_size)
        self.copy_gate = nn.Linear(2 * hidden, 1)

    def gen_prob(self, dec_out, extend_vsize, eps=1e-6):
        logit = self.out(dec_out)  # [B, V]
        bsz, vsize = logit.size()
        if extend_vsize > vsize:
            # article OOV slots get a tiny generation mass
            ext = logit.new_full((bsz, extend_vsize - vsize), eps)
            logit = torch.cat([logit, ext], dim=1)  # [B, V_ext]
        return F.softmax(logit, dim=-1)

    def forward(self, state, memory, mem_mask, extend_src, extend_vsize):
        # state: [B, H], memory: [B, S, H], mem_mask: [B, S], extend_src: [B, S]
        query = self.attn_w(state)
        score = torch.bmm(memory, query.unsqueeze(-1)).squeeze(-1)  # [B, S]
        score = F.softmax(score.masked_fill(~mem_mask, -1e9), dim=-1)
        context = torch.bmm(score.unsqueeze(1), memory).squeeze(1)  # [B, H]
        dec_out = torch.cat([state, context], dim=-1)  # [B, 2H]
        copy_prob = torch.sigmoid(self.copy_gate(dec_out))  # [B, 1]
        gen = self.gen_prob(dec_out, extend_vsize)  # [B, V_ext]
        mixed = ((1 - copy_prob) * gen).scatter_add(
            dim=1,
            index=extend_src,
            source=score * copy_prob,
        )
        return torch.log(mixed + 1e-8)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, hidden, extend_vsize = 20, 8, 23
    step = CopyDecoderStep(vocab, hidden)
    memory = torch.randn(2, 6, hidden)
    mem_mask = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 0]], dtype=torch.bool)
    extend_src = torch.tensor([[3, 20, 7, 3, 21, 5], [22, 9, 9, 1, 0, 0]])  # ids >= 20 are article OOVs
    lp = step(torch.randn(2, hidden), memory, mem_mask, extend_src, extend_vsize)
    print("log-probs over the extended vocabulary:", tuple(lp.shape))
