import torch
import torch.nn as nn
from jaxtyping import Float, Int


class AttnRecognitionDecoder(nn.Module):
    def __init__(self, num_classes: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(num_classes, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, num_classes)
        self.num_classes = num_classes

    def step(
        self, prev: Int[torch.Tensor, "bk"], state: Float[torch.Tensor, "bk hidden"]
    ) -> tuple[Float[torch.Tensor, "bk classes"], Float[torch.Tensor, "bk hidden"]]:
        state = self.cell(self.embed(prev), state)
        return self.out(state).log_softmax(-1), state

    @torch.no_grad()
    def beam_search(
        self, holistic: Float[torch.Tensor, "batch hidden"], beam: int, max_len: int
    ) -> Int[torch.Tensor, "batch steps"]:
        batch = holistic.size(0)
        state = holistic.repeat_interleave(beam, dim=0)
        prev = torch.zeros(batch * beam, dtype=torch.long)
        scores = torch.full((batch, beam), float("-inf"))
        scores[:, 0] = 0.0
        pos_offset = (torch.arange(batch) * beam).view(-1, 1)
        history = []
        for _ in range(max_len):
            logp, state = self.step(prev, state)
            cand = scores.view(-1, 1) + logp
            cand = cand.view(batch, beam * self.num_classes)
            scores, flat_idx = cand.topk(beam, dim=1)
            t_predecessors = flat_idx // self.num_classes
            prev = (flat_idx % self.num_classes).view(-1)
            rows = (t_predecessors + pos_offset).view(-1)
            state = state.index_select(0, rows)
            history = [h.index_select(0, rows) for h in history] + [prev]
        best = torch.stack(history, dim=1).view(batch, beam, -1)[:, 0]
        return best


def reference_beam(dec, holistic, beam, max_len):
    out = []
    for b in range(holistic.size(0)):
        hyps = [(0.0, [], holistic[b])]
        for _ in range(max_len):
            cands = []
            for score, toks, st in hyps:
                prev = torch.tensor([toks[-1] if toks else 0])
                logp, new_st = dec.step(prev, st.unsqueeze(0))
                for c in range(dec.num_classes):
                    cands.append((score + logp[0, c].item(), toks + [c], new_st[0]))
            cands.sort(key=lambda x: -x[0])
            hyps = cands[:beam]
        out.append(hyps[0][1])
    return torch.tensor(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    dec = AttnRecognitionDecoder(num_classes=40, hidden=32)
    feats = torch.randn(2, 32)
    with torch.no_grad():
        got = dec.beam_search(feats, beam=3, max_len=5)
        ref = reference_beam(dec, feats, beam=3, max_len=5)
    assert torch.equal(got, ref), (got, ref)
    print("ok")
