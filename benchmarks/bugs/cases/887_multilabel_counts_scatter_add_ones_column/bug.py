from dataclasses import dataclass

import torch
from jaxtyping import Float, Int


@dataclass
class TagConfig:
    num_tags: int = 10
    pad_id: int = 0
    max_tags: int = 4


def tag_histogram(
    tags: Int[torch.Tensor, "batch max_tags"], cfg: TagConfig
) -> Float[torch.Tensor, "batch num_tags"]:
    batch = tags.size(0)
    hist = torch.zeros(batch, cfg.num_tags)
    weight = torch.ones(batch, 1)
    hist.scatter_add_(1, tags, weight)
    hist[:, cfg.pad_id] = 0.0
    return hist


def tag_prior_loss(
    logits: Float[torch.Tensor, "batch num_tags"], tags: Int[torch.Tensor, "batch max_tags"], cfg: TagConfig
) -> Float[torch.Tensor, ""]:
    hist = tag_histogram(tags, cfg)
    target = hist / hist.sum(dim=1, keepdim=True).clamp(min=1.0)
    return -(target * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = TagConfig()
    tags = torch.tensor([[3, 3, 7, 0], [1, 2, 0, 0], [9, 9, 9, 4]])
    logits = torch.randn(3, cfg.num_tags)
    print("loss", tag_prior_loss(logits, tags, cfg).item())
