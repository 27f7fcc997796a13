import torch
import torch.nn as nn


class TransE(nn.Module):
    def __init__(self, num_entities: int, num_relations: int, dim: int, margin: float = 1.0):
        super().__init__()
        self.entity = nn.Embedding(num_entities, dim)
        self.relation = nn.Embedding(num_relations, dim)
        self.margin = margin

    def score(self, triples: torch.Tensor) -> torch.Tensor:
        h = self.entity(triples[:, 0])
        r = self.relation(triples[:, 1])
        t = self.entity(triples[:, 2])
        return -(h + r - t).norm(p=1, dim=-1)


def build_vocab(raw_triples):
    entities = sorted({e for h, _, t in raw_triples for e in (h, t)})
    relations = sorted({r for _, r, _ in raw_triples})
    return {e: i for i, e in enumerate(entities)}, {r: i for i, r in enumerate(relations)}


def remove_edges(triples: torch.Tensor, n_remove: int) -> torch.Tensor:
    keep = torch.ones(len(triples), dtype=torch.bool)
    keep[-n_remove:] = False
    return triples[keep]


def count_entities(triples: torch.Tensor) -> int:
    return int(torch.unique(triples[:, [0, 2]]).numel())


if __name__ == "__main__":
    torch.manual_seed(0)
    raw = [("aspirin", "treats", "pain"), ("aspirin", "targets", "COX1"), ("ibuprofen", "targets", "COX2"),
           ("ibuprofen", "treats", "pain"), ("COX1", "interacts", "COX2"), ("statin", "targets", "HMGCR"),
           ("HMGCR", "in_pathway", "cholesterol")]
    ent2id, rel2id = build_vocab(raw)
    triples = torch.tensor([[ent2id[h], rel2id[r], ent2id[t]] for h, r, t in raw])
    train = remove_edges(triples, n_remove=2)
    test = triples[-2:]
    num_entities = len(ent2id)
    model = TransE(num_entities, len(rel2id), dim=16)
    scores = model.score(test)
    for k in range(len(test)):
        h, r, t = test[k].tolist()
        ref = -(model.entity.weight[h] + model.relation.weight[r] - model.entity.weight[t]).abs().sum()
        assert torch.allclose(scores[k], ref, atol=1e-5)
    assert model.score(train).shape == (len(train),)
    print("ok")
