import torch
import torch.nn as nn


class Seq2SeqLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg["vocab"], cfg["hidden"])
        self.rnn = nn.GRUCell(cfg["hidden"], cfg["hidden"])
        self.head = nn.Linear(cfg["hidden"], cfg["vocab"])

    def step(self, tokens, state):
        state = self.rnn(self.emb(tokens), state)
        return torch.log_softmax(self.head(state), dim=-1), state


def select_beam_items(x, ids):
    return x.index_select(0, ids)


def beam_decode(model, src_state, cfg):
    K, batch = cfg["beam"], src_state.size(0)
    state = src_state.repeat_interleave(K, dim=0)
    tokens = torch.full((batch * K,), cfg["bos"], dtype=torch.long)
    total = torch.zeros(batch, K)
    total[:, 1:] = -1e9
    step_ids, step_back_ptrs = [], []
    for _ in range(cfg["max_len"]):
        log_probs, state = model.step(tokens, state)
        scores = (total.view(-1, 1) + log_probs).view(batch, -1)
        total, k_ids = torch.topk(scores, K, dim=-1)
        back_ptrs = torch.div(k_ids, cfg["vocab"], rounding_mode="floor")
        k_ids = torch.fmod(k_ids, cfg["vocab"])
        flat_ptrs = (back_ptrs + torch.arange(batch).unsqueeze(1) * K).view(-1)
        state = select_beam_items(state, flat_ptrs)
        tokens = k_ids.view(-1)
        step_ids.append(k_ids)
        step_back_ptrs.append(back_ptrs)
    return step_ids, step_back_ptrs, total


def backtrack(step_ids, step_back_ptrs):
    best = torch.zeros(step_ids[0].size(0), dtype=torch.long)
    out = []
    for ids, ptrs in zip(reversed(step_ids), reversed(step_back_ptrs)):
        out.append(ids.gather(1, best.unsqueeze(1)).squeeze(1))
        best = ptrs.gather(1, best.unsqueeze(1)).squeeze(1)
    return torch.stack(out[::-1], dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab": 25, "hidden": 16, "beam": 3, "max_len": 6, "bos": 1}
    model = Seq2SeqLM(cfg)
    with torch.no_grad():
        step_ids, step_back_ptrs, total = beam_decode(model, torch.randn(2, cfg["hidden"]), cfg)
    best = backtrack(step_ids, step_back_ptrs)
    torch.manual_seed(0)
    model2 = Seq2SeqLM(cfg)
    src_state = torch.randn(2, cfg["hidden"])
    with torch.no_grad():
        for b in range(2):
            st, tok, score = src_state[b : b + 1], torch.tensor([cfg["bos"]]), 0.0
            for t in range(cfg["max_len"]):
                lp, st = model2.step(tok, st)
                tok = best[b, t : t + 1]
                score += lp[0, tok].item()
            assert abs(score - total[b, 0].item()) < 1e-4
    print("ok")
