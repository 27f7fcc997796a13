from typing import Optional

import torch
from jaxtyping import Int
from torch import Tensor


def make_condensation_map(x: Int[Tensor, " n"]) -> Optional[Int[Tensor, " max_id_plus_one"]]:
    """Map old ids to a compact 0..k-1 range; ids that never occur map to -1."""
    if x.numel() == 0:
        return None
    max_id = int(x.max())
    unique_ids = x.unique()
    if torch.equal(unique_ids, torch.arange(max_id + 1)):
        return None
    y = torch.full((max_id + 1,), fill_value=-1)
    y[unique_ids] = torch.arange(max_id + 1)
    return y


def condense_triples(mapped_triples: Int[Tensor, "n 3"]) -> tuple[Int[Tensor, "n 3"], int, int]:
    entity_map = make_condensation_map(mapped_triples[:, [0, 2]].flatten())
    relation_map = make_condensation_map(mapped_triples[:, 1])
    out = mapped_triples.clone()
    if entity_map is not None:
        out[:, 0] = entity_map[mapped_triples[:, 0]]
        out[:, 2] = entity_map[mapped_triples[:, 2]]
    if relation_map is not None:
        out[:, 1] = relation_map[mapped_triples[:, 1]]
    num_entities = int(out[:, [0, 2]].max()) + 1
    num_relations = int(out[:, 1].max()) + 1
    return out, num_entities, num_relations


if __name__ == "__main__":
    torch.manual_seed(0)
    # a test split that only mentions a subset of the training vocabulary
    heads = torch.tensor([3, 17, 42, 3, 8, 17])
    rels = torch.tensor([0, 5, 5, 2, 0, 2])
    tails = torch.tensor([8, 42, 99, 17, 3, 99])
    triples = torch.stack([heads, rels, tails], dim=1)
    condensed, n_e, n_r = condense_triples(triples)
    print(condensed.tolist(), n_e, n_r)
