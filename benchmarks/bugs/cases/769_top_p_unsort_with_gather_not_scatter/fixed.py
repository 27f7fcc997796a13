import torch
import torch.nn.functional as F
from torch import nn


def top_p(logits, thres=0.9):
    sorted_logits, sorted_indices = torch.sort(logits, descending=True)
    cum_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)

    sorted_indices_to_remove = cum_probs > thres
    sorted_indices_to_remove[:, 1:] = sorted_indices_to_remove[:, :-1].clone()
    sorted_indices_to_remove[:, 0] = False

    sorted_logits[sorted_indices_to_remove] = float("-inf")
    return sorted_logits.scatter(1, sorted_indices, sorted_logits)


class Sampler(nn.Module):
    def __init__(self, lm_head, temperature=1.0, filter_thres=0.9):
        super().__init__()
        self.lm_head = lm_head
        self.temperature = temperature
        self.filter_thres = filter_thres

    @torch.no_grad()
    def step(self, hidden, generator=None):
        logits = self.lm_head(hidden)
        filtered = top_p(logits, thres=self.filter_thres)
        probs = F.softmax(filtered / self.temperature, dim=-1)
        return torch.multinomial(probs, 1, generator=generator), filtered


def reference_top_p(row, thres):
    order = sorted(range(len(row)), key=lambda i: -row[i])
    probs = torch.softmax(torch.tensor([row[i] for i in order]), dim=0).tolist()
    out = [float("-inf")] * len(row)
    cum = 0.0
    for rank, i in enumerate(order):
        if rank == 0 or cum <= thres:
            out[i] = row[i]
        cum += probs[rank]
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    sampler = Sampler(nn.Linear(16, 10))
    hidden = torch.randn(2, 16)
    tokens, filtered = sampler.step(hidden, generator=torch.Generator().manual_seed(0))
    logits = sampler.lm_head(hidden)
    for b in range(2):
        expected = reference_top_p(logits[b].tolist(), 0.9)
        for v in range(10):
            got = filtered[b, v].item()
            assert (got == float("-inf")) == (expected[v] == float("-inf")), (b, v)
            if expected[v] != float("-inf"):
                assert abs(got - expected[v]) < 1e-6, (b, v)
    print("ok")
