"""Score a per-triple subset of candidate tails (fast sLCWA-style negative scoring)."""
from typing import Optional

import torch
from torch import nn


def _restrict_to(scores: torch.FloatTensor, ids: Optional[torch.LongTensor]) -> torch.FloatTensor:
    """
    Select the given IDs from a tensor of all scores.

    :param scores: shape: (batch_size, n)
        The scores for all $n$ candidates.
    :param ids: shape: (k,) | (batch_size, k)
        The selected IDs.

    :return: shape: (batch_size, k)
        The selected scores.
    """
    if ids is None:
        return scores
    if ids.ndim == 1:
        return scores[:, ids]
    return scores[ids[:, 0], ids[:, 1]]


class DistMult(nn.Module):
    """Bilinear-diagonal interaction <h, r, t>."""

    def __init__(self, num_entities: int, num_relations: int, embedding_dim: int):
        super().__init__()
        self.entity_embeddings = nn.Embedding(num_entities, embedding_dim)
        self.relation_embeddings = nn.Embedding(num_relations, embedding_dim)

    def score_t(self, hr_batch: torch.LongTensor, tails: Optional[torch.LongTensor] = None) -> torch.FloatTensor:
        """
        Score (h, r, t) against a set of tails.

        :param hr_batch: shape: (batch_size, 2)
            The head and relation IDs.
        :param tails: shape: (k,) | (batch_size, k)
            Candidate tail IDs, shared or one row per triple. None scores all entities.

        :return: shape: (batch_size, k)
            The scores.
        """
        h = self.entity_embeddings(hr_batch[:, 0])
        r = self.relation_embeddings(hr_batch[:, 1])
        all_scores = (h * r) @ self.entity_embeddings.weight.t()
        return _restrict_to(all_scores, tails)


def corrupt_tails(hrt_batch: torch.LongTensor, num_entities: int, num_negs_per_pos: int) -> torch.LongTensor:
    """
    Draw negative tails for every positive triple.

    :param hrt_batch: shape: (batch_size, 3)
    :return: shape: (batch_size, num_negs_per_pos)
    """
    return torch.randint(num_entities, (hrt_batch.shape[0], num_negs_per_pos))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DistMult(num_entities=40, num_relations=6, embedding_dim=16)
    hrt = torch.stack(
        [torch.randint(40, (8,)), torch.randint(6, (8,)), torch.randint(40, (8,))], dim=-1
    )
    negative_tails = corrupt_tails(hrt, num_entities=40, num_negs_per_pos=5)
    neg_scores = model.score_t(hrt[:, :2], tails=negative_tails)
    print("negative scores:", tuple(neg_scores.shape))
