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
    return sorted_logits.gather(1, sorted_indices)


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


if __name__ == "__main__":
    torch.manual_seed(0)
    sampler = Sampler(nn.Linear(16, 10))
    hidden = torch.randn(2, 16)
    tokens, filtered = sampler.step(hidden, generator=torch.Generator().manual_seed(0))
    logits = sampler.lm_head(hidden)
    print("argmax of logits      :", logits.argmax(-1).tolist())
    print("argmax after filtering:", filtered.argmax(-1).tolist())
    print("kept token ids:", [torch.nonzero(row > float("-inf")).flatten().tolist() for row in filtered])
    print("sampled:", tokens.flatten().tolist())
