from dataclasses import dataclass

import torch
from jaxtyping import Float, Int


@dataclass
class RerankConfig:
    num_candidates: int = 10
    margin: float = 0.5
    hidden: int = 16


class CandidateScorer(torch.nn.Module):
    def __init__(self, cfg: RerankConfig):
        super().__init__()
        self.proj = torch.nn.Linear(cfg.hidden, 1)

    def forward(
        self, cand_repr: Float[torch.Tensor, "batch cand hidden"]
    ) -> Float[torch.Tensor, "batch cand"]:
        return self.proj(cand_repr).squeeze(-1)


def margin_ranking_loss(
    scores: Float[torch.Tensor, "batch cand"],
    gold: Int[torch.Tensor, "batch"],
    margin: float,
) -> Float[torch.Tensor, ""]:
    gold_scores = scores.gather(1, gold.unsqueeze(1))
    violations = (margin - gold_scores + scores).clamp(min=0.0)
    is_gold = torch.zeros_like(scores, dtype=torch.bool)
    is_gold[torch.arange(scores.size(0)), gold] = True
    return violations.masked_fill(is_gold, 0.0).sum(1).mean()


def train_step(model, batch, cfg):
    scores = model(batch["cand_repr"])
    return margin_ranking_loss(scores, batch["gold"], cfg.margin)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = RerankConfig()
    model = CandidateScorer(cfg)
    batch = {
        "cand_repr": torch.randn(4, cfg.num_candidates, cfg.hidden),
        "gold": torch.tensor([7, 2, 9, 0]),
    }
    loss = train_step(model, batch, cfg)
    scores = model(batch["cand_repr"])
    total = 0.0
    for b in range(4):
        g = int(batch["gold"][b])
        for c in range(cfg.num_candidates):
            if c != g:
                total += max(0.0, cfg.margin - scores[b, g].item() + scores[b, c].item())
    assert abs(loss.item() - total / 4) < 1e-5
    print("ok")
