from dataclasses import dataclass

import torch
from jaxtyping import Float, Int


@dataclass
class RerankConfig:
    num_items: int = 40
    num_candidates: int = 5
    slot_bonus: tuple = (0.5, 0.3, 0.2, 0.1, 0.05)


def retrieve_candidates(
    query: Float[torch.Tensor, "batch dim"], item_emb: Float[torch.Tensor, "items dim"], k: int
) -> Int[torch.Tensor, "batch k"]:
    return (query @ item_emb.T).topk(k, dim=-1).indices


def position_bonus(cfg: RerankConfig) -> Float[torch.Tensor, "1 k"]:
    return torch.tensor(cfg.slot_bonus).unsqueeze(0)


def rerank_scores(
    logits: Float[torch.Tensor, "batch items"],
    candidates: Int[torch.Tensor, "batch k"],
    bonus: Float[torch.Tensor, "1 k"],
) -> Float[torch.Tensor, "batch items"]:
    return logits.clone().scatter_add_(1, candidates, bonus)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = RerankConfig()
    item_emb = torch.randn(cfg.num_items, 16)
    query = torch.randn(4, 16)
    logits = torch.randn(4, cfg.num_items)
    cands = retrieve_candidates(query, item_emb, cfg.num_candidates)
    scores = rerank_scores(logits, cands, position_bonus(cfg))
    print("top items after rerank:", scores.argmax(dim=-1).tolist())
