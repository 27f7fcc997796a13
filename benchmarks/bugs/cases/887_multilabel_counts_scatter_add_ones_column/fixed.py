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
    weight = torch.ones(batch, tags.size(1))
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
    hist = tag_histogram(tags, cfg)
    for b in range(3):
        ref = [0.0] * cfg.num_tags
        for t in tags[b].tolist():
            if t != cfg.pad_id:
                ref[t] += 1.0
        assert hist[b].tolist() == ref, (hist[b], ref)
    loss = tag_prior_loss(logits, tags, cfg)
    logp = torch.log_softmax(logits, dim=1)
    total = 0.0
    for b in range(3):
        n = float(hist[b].sum())
        total += -sum(float(hist[b, c]) / n * float(logp[b, c]) for c in range(cfg.num_tags))
    assert abs(loss.item() - total / 3) < 1e-5
    print("ok")
