from dataclasses import dataclass

import torch
import torch.nn as nn
from jaxtyping import Float, Int


@dataclass
class RankerConfig:
    vocab_size: int = 100
    hidden_size: int = 32
    num_labels: int = 1


class CrossEncoderRanker(nn.Module):
    def __init__(self, config: RankerConfig):
        super().__init__()
        self.embed = nn.EmbeddingBag(config.vocab_size, config.hidden_size)
        self.classifier = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, input_ids: Int[torch.Tensor, "batch seq"]) -> Float[torch.Tensor, "batch num_labels"]:
        return self.classifier(self.embed(input_ids))


@dataclass
class LabelSmoother:
    epsilon: float = 0.1
    ignore_index: int = -100

    def __call__(self, logits: Float[torch.Tensor, "batch num_labels"], labels: Int[torch.Tensor, " batch"]) -> torch.Tensor:
        log_probs = -nn.functional.log_softmax(logits, dim=-1)
        if labels.dim() == log_probs.dim() - 1:
            labels = labels.unsqueeze(-1)
        padding_mask = labels.eq(self.ignore_index)
        labels = torch.clamp(labels, min=0)
        nll_loss = log_probs.gather(dim=-1, index=labels)
        smoothed_loss = log_probs.sum(dim=-1, keepdim=True, dtype=torch.float32)
        nll_loss.masked_fill_(padding_mask, 0.0)
        smoothed_loss.masked_fill_(padding_mask, 0.0)
        num_active = padding_mask.numel() - padding_mask.long().sum()
        nll_loss = nll_loss.sum() / num_active
        smoothed_loss = smoothed_loss.sum() / (num_active * log_probs.shape[-1])
        return (1 - self.epsilon) * nll_loss + self.epsilon * smoothed_loss


def compute_loss(model, batch, smoother):
    logits = model(batch["input_ids"])
    return smoother(logits, batch["labels"])


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CrossEncoderRanker(RankerConfig())
    batch = {
        "input_ids": torch.randint(0, 100, (4, 12)),
        "labels": torch.tensor([1, 0, 0, 1]),  # relevant / not relevant
    }
    print("loss:", compute_loss(model, batch, LabelSmoother()).item())
