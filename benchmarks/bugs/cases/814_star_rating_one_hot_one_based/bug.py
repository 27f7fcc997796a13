from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


@dataclass
class RatingConfig:
    num_stars: int = 5
    hidden: int = 12
    smoothing: float = 0.1


def smoothed_targets(
    stars: Int[Tensor, "batch"], num_stars: int, eps: float
) -> Float[Tensor, "batch stars"]:
    hard = F.one_hot(stars, num_classes=num_stars).float()
    return hard * (1.0 - eps) + eps / num_stars


class ReviewHead(nn.Module):
    def __init__(self, cfg: RatingConfig):
        super().__init__()
        self.cfg = cfg
        self.out = nn.Linear(cfg.hidden, cfg.num_stars)

    def forward(self, pooled: Float[Tensor, "batch hidden"]) -> Float[Tensor, "batch stars"]:
        return self.out(pooled)

    def loss(self, pooled: Float[Tensor, "batch hidden"], stars: Int[Tensor, "batch"]) -> Float[Tensor, ""]:
        logp = F.log_softmax(self(pooled), dim=-1)
        target = smoothed_targets(stars, self.cfg.num_stars, self.cfg.smoothing)
        return -(target * logp).sum(-1).mean()


def read_reviews(n: int, hidden: int):
    g = torch.Generator().manual_seed(1)
    pooled = torch.randn(n, hidden, generator=g)
    stars = torch.tensor([5, 3, 1, 4, 5, 2, 4, 1])[:n]  # review scores as stored: 1..5 stars
    return pooled, stars


if __name__ == "__main__":
    cfg = RatingConfig()
    torch.manual_seed(0)
    head = ReviewHead(cfg)
    pooled, stars = read_reviews(8, cfg.hidden)
    print("loss:", head.loss(pooled, stars).item())
