import torch
import torch.nn as nn


class TinyCaptioner(nn.Module):
    def __init__(self, vocab_size=30, d_model=16):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.cell = nn.GRUCell(d_model, d_model)
        self.head = nn.Linear(d_model, vocab_size)

    def step(self, word, state):
        state = self.cell(self.embed(word), state)          # (B*K, D)
        return torch.log_softmax(self.head(state), -1), state


class BeamSearch:
    def __init__(self, model, beam_size):
        self.model = model
        self.beam_size = beam_size

    def _expand_state(self, state, selected_beam, batch_size):
        # state: (B*K, D) -> (B, K, D); selected_beam: (B, K)
        d = state.shape[-1]
        state = state.view(batch_size, self.beam_size, d)
        idx = selected_beam.unsqueeze(-1).expand(batch_size, self.beam_size, d)
        return torch.gather(state, 1, idx).view(-1, d)

    def select(self, seq_logprob, word_logprob):
        # seq_logprob: (B, K, 1), word_logprob: (B, K, V)
        batch_size, _, vocab = word_logprob.shape
        candidate = (seq_logprob + word_logprob).view(batch_size, -1)   # (B, K*V)
        top_lp, selected_idx = candidate.topk(self.beam_size, dim=-1)   # (B, K)
        selected_beam = torch.div(selected_idx, vocab, rounding_mode="floor")
        selected_word = selected_idx - selected_beam * vocab
        return top_lp, selected_beam, selected_word

    def run(self, feats, bos, max_len=4):
        b, k = feats.shape[0], self.beam_size
        state = feats.repeat_interleave(k, dim=0)                      # (B*K, D)
        word = torch.full((b * k,), bos, dtype=torch.long)
        seq_lp = torch.full((b, k, 1), -1e9)
        seq_lp[:, 0] = 0.0
        for _ in range(max_len):
            word_lp, state = self.model.step(word, state)
            top_lp, beam, word = self.select(seq_lp, word_lp.view(b, k, -1))
            state = self._expand_state(state, beam, b)
            seq_lp = top_lp.unsqueeze(-1)
            word = word.reshape(-1).long()
        return seq_lp.squeeze(-1)


def reference(model, feats, bos, k, max_len=4):
    out = []
    for i in range(feats.shape[0]):
        beams = [(0.0 if j == 0 else -1e9, feats[i], bos) for j in range(k)]
        for _ in range(max_len):
            cands = []
            for lp, st, w in beams:
                wl, ns = model.step(torch.tensor([w]), st.unsqueeze(0))
                for v in range(wl.shape[-1]):
                    cands.append((lp + wl[0, v].item(), ns[0], v))
            cands.sort(key=lambda c: -c[0])
            beams = cands[:k]
        out.append([c[0] for c in beams])
    return torch.tensor(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyCaptioner()
    feats = torch.randn(2, 16)                                         # (B, D) image features
    with torch.no_grad():
        got = BeamSearch(model, beam_size=3).run(feats, bos=1)
        ref = reference(model, feats, 1, 3)
    assert torch.allclose(got, ref, atol=1e-4), (got, ref)
    print("ok")
