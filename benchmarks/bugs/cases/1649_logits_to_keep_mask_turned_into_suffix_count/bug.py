from typing import Union

import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor

IGNORE_INDEX = -100


class ToyCausalLM(nn.Module):
    """Causal LM whose forward only materializes the last `logits_to_keep` positions (int API)."""

    def __init__(self, vocab: int, dim: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.mix = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(
        self, input_ids: Int[Tensor, "batch seq"], logits_to_keep: int = 0
    ) -> Float[Tensor, "batch kept vocab"]:
        hidden, _ = self.mix(self.embed(input_ids))
        if logits_to_keep:
            hidden = hidden[:, -logits_to_keep:, :]
        return self.lm_head(hidden)


def prepare_logits_to_keep(
    labels: Int[Tensor, "batch seq"],
) -> tuple[Bool[Tensor, "seq"], Int[Tensor, "batch kept"]]:
    """Positions that carry a next-token label, and the labels compressed to those positions."""
    keep = (labels != IGNORE_INDEX).any(dim=0)
    return keep, labels[:, keep]


def selective_log_softmax(
    logits: Float[Tensor, "batch kept vocab"], index: Int[Tensor, "batch kept"]
) -> Float[Tensor, "batch kept"]:
    logps = logits.float().log_softmax(dim=-1)
    return logps.gather(dim=-1, index=index.unsqueeze(-1)).squeeze(-1)


def sft_loss(model: ToyCausalLM, input_ids: Int[Tensor, "batch seq"], labels: Int[Tensor, "batch seq"]) -> Float[Tensor, ""]:
    keep, kept_labels = prepare_logits_to_keep(labels)
    logits_to_keep = int(keep.sum())
    logits = model(input_ids, logits_to_keep=logits_to_keep)
    token_logps = selective_log_softmax(logits, kept_labels)
    return -token_logps.mean()


def build_multiturn_labels(input_ids: Int[Tensor, "batch seq"], spans) -> Int[Tensor, "batch seq"]:
    """labels[t] is the token that position t must predict (input_ids[t + 1]) inside assistant spans."""
    labels = torch.full_like(input_ids, IGNORE_INDEX)
    for start, end in spans:
        labels[:, start:end] = input_ids[:, start + 1 : end + 1]
    return labels


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ToyCausalLM(vocab=40, dim=16)
    nn.init.normal_(model.lm_head.weight, std=2.0)
    input_ids = torch.randint(0, 40, (1, 20))
    labels = build_multiturn_labels(input_ids, spans=[(4, 8), (13, 18)])
    loss = sft_loss(model, input_ids, labels)
    full = model(input_ids).log_softmax(-1)
    pairs = [(t, labels[0, t].item()) for t in range(20) if labels[0, t].item() != IGNORE_INDEX]
    ref = -sum(full[0, t, y].item() for t, y in pairs) / len(pairs)
    print("loss:", round(loss.item(), 4), "reference:", round(ref, 4))
