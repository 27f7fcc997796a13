import torch
import torch.nn as nn


class AverageAttention(nn.Module):
    """Average attention network layer (Zhang et al., 2018) with an incremental decoding cache."""

    def __init__(self, embed_dim):
        super().__init__()
        self.embed_dim = embed_dim
        self.gate = nn.Linear(2 * embed_dim, 2 * embed_dim)

    def forward_step(self, value, state):
        if "prev_sum" in state:
            curr_sum = state["prev_sum"] + value
            pos = state["prev_pos"] + 1
        else:
            curr_sum = value
            pos = torch.ones(1)
        state["prev_sum"] = curr_sum
        state["prev_pos"] = pos
        avg = curr_sum / pos
        i, f = self.gate(torch.cat([value, avg], dim=-1)).sigmoid().chunk(2, dim=-1)
        return i * value + f * avg

    def reorder_state(self, state, new_order):
        for key in list(state.keys()):
            state[key] = state[key].index_select(1, new_order)
        return state


def beam_decode(layer, embed, proj, bos, batch, beam, steps):
    state = {}
    tokens = torch.full((1, batch * beam), bos, dtype=torch.long)
    scores = torch.zeros(batch, beam)
    for step in range(steps):
        x = embed(tokens[-1:])
        lprobs = proj(layer.forward_step(x, state)).log_softmax(-1)[0]
        vocab = lprobs.size(-1)
        cand = (scores.view(-1, 1) + lprobs).view(batch, beam * vocab)
        if step == 0:
            cand = lprobs.view(batch, beam, vocab)[:, 0]
        top, idx = cand.topk(beam, dim=-1)
        beam_idx = torch.div(idx, vocab, rounding_mode="floor")
        word = idx % vocab
        new_order = (beam_idx + torch.arange(batch).unsqueeze(1) * beam).view(-1)
        tokens = torch.cat([tokens.index_select(1, new_order), word.view(1, -1)], dim=0)
        state = layer.reorder_state(state, new_order)
        scores = top
    return tokens, scores


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab": 20, "dim": 16, "batch": 2, "beam": 3, "steps": 4}
    embed = nn.Embedding(cfg["vocab"], cfg["dim"])
    proj = nn.Linear(cfg["dim"], cfg["vocab"])
    layer = AverageAttention(cfg["dim"])
    with torch.no_grad():
        tokens, scores = beam_decode(layer, embed, proj, 0, cfg["batch"], cfg["beam"], cfg["steps"])
    print(tokens.t(), scores)
