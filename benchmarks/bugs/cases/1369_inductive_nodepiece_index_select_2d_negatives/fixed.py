from typing import Optional, Tuple

import torch
import torch.nn as nn


class RelationalMessagePassing(nn.Module):
    """One CompGCN-like layer: entity states are updated from (neighbour - relation) messages.

    Args:
        dim: size of the entity and relation states.
    """

    def __init__(self, dim: int):
        super().__init__()
        self.w_msg = nn.Linear(dim, dim, bias=False)
        self.w_self = nn.Linear(dim, dim)
        self.w_rel = nn.Linear(dim, dim, bias=False)

    def forward(self, x_e, x_r, edge_index, edge_type):
        src, dst = edge_index
        msg = self.w_msg(x_e[src] - x_r[edge_type])
        agg = torch.zeros_like(x_e).index_add_(0, dst, msg)
        deg = torch.zeros(x_e.size(0), dtype=x_e.dtype).index_add_(0, dst, torch.ones_like(dst, dtype=x_e.dtype))
        x_e = torch.tanh(self.w_self(x_e) + agg / deg.clamp(min=1.0).unsqueeze(-1))
        return x_e, self.w_rel(x_r)


class InductiveGNNScorer(nn.Module):
    """DistMult scorer on top of GNN-refined entity representations.

    Args:
        num_entities: number of entities of the inference graph.
        num_relations: number of relation types.
        dim: embedding size.
        num_layers: message passing layers.
    """

    def __init__(self, num_entities: int, num_relations: int, dim: int = 16, num_layers: int = 2):
        super().__init__()
        self.entity_emb = nn.Embedding(num_entities, dim)
        self.relation_emb = nn.Embedding(num_relations, dim)
        self.layers = nn.ModuleList(RelationalMessagePassing(dim) for _ in range(num_layers))

    def _get_representations(
        self,
        h: Optional[torch.LongTensor],
        r: Optional[torch.LongTensor],
        t: Optional[torch.LongTensor],
        edge_index: torch.LongTensor,
        edge_type: torch.LongTensor,
    ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Refine all states with the GNN, then pick the requested ids.

        Args:
            h: head ids, shape (batch_size, num_heads), or None for all entities.
            r: relation ids, shape (batch_size, 1), or None for all relations.
            t: tail ids, shape (batch_size, num_tails), or None for all entities.

        Returns:
            Head, relation and tail states of shape (batch_size, n, dim).
        """
        x_e, x_r = self.entity_emb.weight, self.relation_emb.weight
        for layer in self.layers:
            x_e, x_r = layer(x_e, x_r, edge_index, edge_type)
        hh = x_e[h] if h is not None else x_e.unsqueeze(0)
        rr = x_r[r] if r is not None else x_r.unsqueeze(0)
        tt = x_e[t] if t is not None else x_e.unsqueeze(0)
        return hh, rr, tt

    def score(self, h, r, t, edge_index, edge_type) -> torch.Tensor:
        """Score (h, r, t) with DistMult.

        Args:
            h: (batch_size, 1) head ids.
            r: (batch_size, 1) relation ids.
            t: (batch_size, num_tails) tail ids, e.g. the true tail followed by negatives.

        Returns:
            Scores of shape (batch_size, num_tails).
        """
        hh, rr, tt = self._get_representations(h, r, t, edge_index, edge_type)
        return (hh * rr * tt).sum(dim=-1)


def reference_scores(model, h, r, t, edge_index, edge_type):
    x_e, x_r = model.entity_emb.weight, model.relation_emb.weight
    for layer in model.layers:
        x_e, x_r = layer(x_e, x_r, edge_index, edge_type)
    out = torch.empty(t.shape)
    for b in range(t.size(0)):
        for j in range(t.size(1)):
            out[b, j] = (x_e[h[b, 0]] * x_r[r[b, 0]] * x_e[t[b, j]]).sum()
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    num_entities, num_relations = 30, 4
    edge_index = torch.randint(0, num_entities, (2, 80))
    edge_type = torch.randint(0, num_relations, (80,))
    model = InductiveGNNScorer(num_entities, num_relations)
    h = torch.randint(0, num_entities, (6, 1))
    r = torch.randint(0, num_relations, (6, 1))
    t = torch.randint(0, num_entities, (6, 5))
    with torch.no_grad():
        scores = model.score(h, r, t, edge_index, edge_type)
        ref = reference_scores(model, h, r, t, edge_index, edge_type)
    assert scores.shape == (6, 5)
    assert torch.allclose(scores, ref, atol=1e-5)
    print("ok")
