import torch
import torch.nn as nn
import torch.nn.functional as F


class Beam(object):
    """Beam of one source code snippet during decoding."""

    def __init__(self, size, pad, bos, eos):
        self.size = size
        self.scores = torch.zeros(size)  # (beam,)
        self.prev_ks = []  # backpointers, each (beam,)
        self.next_ys = [torch.full((size,), pad, dtype=torch.long)]  # outputs, each (beam,)
        self.next_ys[0][0] = bos
        self._eos = eos
        self.attn = []  # each (beam, src_len)

    def get_current_state(self):
        return self.next_ys[-1]

    def get_current_origin(self):
        return self.prev_ks[-1]

    def advance(self, word_probs, attn_out):
        # word_probs: (beam, vocab) log-probabilities; attn_out: (beam, src_len)
        num_words = word_probs.size(1)
        if len(self.prev_ks) > 0:
            beam_scores = word_probs + self.scores.unsqueeze(1).expand_as(word_probs)
            for i in range(self.next_ys[-1].size(0)):
                if self.next_ys[-1][i] == self._eos:
                    beam_scores[i] = -1e20
        else:
            beam_scores = word_probs[0]
        flat_beam_scores = beam_scores.view(-1)  # (beam * vocab,)
        best_scores, best_scores_id = flat_beam_scores.topk(self.size, 0, True, True)
        self.scores = best_scores
        # best_scores_id is flattened beam x word array, so calculate which word and beam each score came from
        prev_k = best_scores_id // num_words
        self.prev_ks.append(prev_k)
        self.next_ys.append(best_scores_id - prev_k * num_words)
        self.attn.append(attn_out.index_select(0, prev_k))

    def get_hyp(self, k):
        """Walk back to construct the full hypothesis ending in beam k."""
        hyp, attn = [], []
        for j in range(len(self.prev_ks) - 1, -1, -1):
            hyp.append(self.next_ys[j + 1][k].item())
            attn.append(self.attn[j][k])
            k = self.prev_ks[j][k]
        return hyp[::-1], torch.stack(attn[::-1])


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(2 * hidden, vocab_size)

    def forward(self, tokens, state, memory_bank):
        # tokens: (beam,); state: (beam, hidden); memory_bank: (src_len, hidden)
        state = self.cell(self.embed(tokens), state)
        attn = F.softmax(state @ memory_bank.t(), dim=-1)  # (beam, src_len)
        context = attn @ memory_bank
        return F.log_softmax(self.out(torch.cat([state, context], -1)), dim=-1), attn, state


@torch.no_grad()
def translate(decoder, memory_bank, beam_size, max_len, pad=0, bos=1, eos=2):
    beam = Beam(beam_size, pad, bos, eos)
    state = memory_bank.mean(0).expand(beam_size, -1).contiguous()
    for _ in range(max_len):
        word_probs, attn, state = decoder(beam.get_current_state(), state, memory_bank)
        beam.advance(word_probs, attn)
        state = state.index_select(0, beam.get_current_origin())
    return beam


if __name__ == "__main__":
    torch.manual_seed(0)
    decoder = TinyDecoder(vocab_size=12, hidden=8)
    memory_bank = torch.randn(5, 8)
    beam = translate(decoder, memory_bank, beam_size=3, max_len=4)
    hyp, attn = beam.get_hyp(0)
    print("best summary tokens:", hyp, "attention history:", tuple(attn.shape))
    # plain-loop reference beam search over (score, tokens, state) lists
    with torch.no_grad():
        state0 = memory_bank.mean(0)
        hyps = [(0.0, [1], state0, [])] + [(-1e30, [0], state0, [])] * 2
        for step in range(4):
            cands = []
            for k, (score, toks, st, att) in enumerate(hyps):
                lp, a, new_st = decoder(torch.tensor([toks[-1]]), st[None], memory_bank)
                if step == 0 and k > 0:
                    continue
                for w in range(12):
                    s = lp[0, w].item() if step == 0 else score + lp[0, w].item()
                    cands.append((s, toks + [w], new_st[0], att + [a[0]]))
            cands.sort(key=lambda c: -c[0])
            hyps = cands[:3]
    assert hyp == hyps[0][1][1:], (hyp, hyps[0][1])
    assert torch.allclose(attn, torch.stack(hyps[0][3]), atol=1e-6)
    print("ok")
