from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor

if TYPE_CHECKING:
    from jaxtyping import Float, Int


class ToyLM(nn.Module):
    def __init__(self, vocab: int = 40, dim: int = 24):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids: Int[Tensor, "b l"]) -> Float[Tensor, "b l v"]:
        h, _ = self.mix(self.emb(ids))
        return self.out(h)


def log_probs_from_logits(logits: Float[Tensor, "b n v"], labels: Int[Tensor, "b n"]) -> Float[Tensor, "b n"]:
    logp = F.log_softmax(logits, dim=-1)
    return torch.gather(logp, 2, labels.unsqueeze(2)).squeeze(-1)


def sequence_logprob(model: ToyLM, labels: Int[Tensor, "b l"], input_len: int = 0) -> float:
    """Log-probability of the generated continuation labels[:, input_len:] given the prompt."""
    with torch.no_grad():
        logits = model(labels)
        log_probs = log_probs_from_logits(logits[:, :-1, :], labels[:, 1:])
        seq_log_prob = torch.sum(log_probs[:, max(input_len - 1, 0):])
    return seq_log_prob.item()


def main():
    torch.manual_seed(0)
    model = ToyLM()
    prompt = torch.randint(0, 40, (1, 6))
    completion = torch.randint(0, 40, (1, 5))
    output = torch.cat([prompt, completion], dim=1)
    score = sequence_logprob(model, output, input_len=prompt.size(1))
    with torch.no_grad():
        logp = F.log_softmax(model(output), dim=-1)
    ref = 0.0
    for t in range(prompt.size(1), output.size(1)):
        ref += float(logp[0, t - 1, int(output[0, t])])
    assert abs(score - ref) < 1e-4, (score, ref)
    print("ok")


if __name__ == "__main__":
    main()
