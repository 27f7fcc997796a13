import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CFG = {"hidden": 8, "max_len": 10, "lengths": [10, 4, 6], "seed": 0}


class SpanStartHead(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.score = nn.Linear(hidden, 1)

    def forward(self, states, mask):
        logits = self.score(states).squeeze(-1).masked_fill(~mask, float("-inf"))
        return F.log_softmax(logits, dim=-1)


def start_nll(head, states, mask, gold):
    logp = head(states, mask)
    picked = logp.gather(1, gold.unsqueeze(1)).squeeze(1)
    return -picked


def make_batch(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    n = len(cfg["lengths"])
    states = torch.zeros(n, cfg["max_len"], cfg["hidden"])
    mask = torch.zeros(n, cfg["max_len"], dtype=torch.bool)
    gold = []
    for i, length in enumerate(cfg["lengths"]):
        states[i, :length] = torch.randn(length, cfg["hidden"], generator=g)
        mask[i, :length] = True
        gold.append(int(torch.randint(0, length, (1,), generator=g)))
    return states, mask, torch.tensor(gold)


if __name__ == "__main__":
    torch.manual_seed(CFG["seed"])
    head = SpanStartHead(CFG["hidden"])
    states, mask, gold = make_batch(CFG)
    nll = start_nll(head, states, mask, gold)
    for i, length in enumerate(CFG["lengths"]):
        with torch.no_grad():
            scores = [float(head.score(states[i, t])) for t in range(length)]
        top = max(scores)
        lse = top + math.log(sum(math.exp(s - top) for s in scores))
        assert abs(float(nll[i].detach()) - (lse - scores[int(gold[i])])) < 1e-5
    print("ok")
