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
            src=score * copy_prob,
        )
        return torch.log(mixed + 1e-8)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, hidden, extend_vsize = 20, 8, 23
    step = CopyDecoderStep(vocab, hidden)
    memory = torch.randn(2, 6, hidden)
    mem_mask = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 0]], dtype=torch.bool)
    extend_src = torch.tensor([[3, 20, 7, 3, 21, 5], [22, 9, 9, 1, 0, 0]])  # ids >= 20 are article OOVs
    state = torch.randn(2, hidden)
    with torch.no_grad():
        lp = step(state, memory, mem_mask, extend_src, extend_vsize)
        # loop reference: mix generation and copy mass entry by entry
        query = step.attn_w(state)
        dec = None
        for b in range(2):
            s = memory[b] @ query[b]
            s = s.masked_fill(~mem_mask[b], -1e9).softmax(-1)
            ctx = (s.unsqueeze(-1) * memory[b]).sum(0)
            dec = torch.cat([state[b], ctx])
            p = torch.sigmoid(step.copy_gate(dec))[0]
            g = step.gen_prob(dec.unsqueeze(0), extend_vsize)[0]
            ref = [(1 - p) * g[v] for v in range(extend_vsize)]
            for i in range(memory.size(1)):
                ref[extend_src[b, i].item()] = ref[extend_src[b, i].item()] + p * s[i]
            ref = torch.log(torch.stack(ref) + 1e-8)
            assert torch.allclose(lp[b], ref, atol=1e-5)
    print("ok")
