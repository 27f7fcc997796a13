from collections import defaultdict

import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor


class DistMult(nn.Module):
    """Bilinear-diagonal KGE model: score(h, r, t) = <e_h, w_r, e_t>."""

    def __init__(self, num_entities: int, num_relations: int, dim: int = 16):
        super().__init__()
        self.entity = nn.Embedding(num_entities, dim)
        self.relation = nn.Embedding(num_relations, dim)

    def score_hrt(self, hrt: Int[Tensor, "batch 3"]) -> Float[Tensor, "batch"]:
        h = self.entity(hrt[:, 0])
        r = self.relation(hrt[:, 1])
        t = self.entity(hrt[:, 2])
        return (h * r * t).sum(-1)

    def score_t(self, hr: Int[Tensor, "batch 2"]) -> Float[Tensor, "batch entities"]:
        h = self.entity(hr[:, 0])
        r = self.relation(hr[:, 1])
        return (h * r) @ self.entity.weight.t()

    def score_t_restricted(
        self, hr: Int[Tensor, "batch 2"], tails: Int[Tensor, "batch k"]
    ) -> Float[Tensor, "batch k"]:
        return self.score_t(hr).gather(dim=1, index=tails)


def corrupt_tails(
    hrt: Int[Tensor, "batch 3"], num_negs: int, num_entities: int, generator: torch.Generator
) -> Int[Tensor, "batch negs 3"]:
    negs = hrt.unsqueeze(1).repeat(1, num_negs, 1)
    new_tails = torch.randint(0, num_entities, (hrt.size(0), num_negs), generator=generator)
    column = torch.full_like(new_tails, 2).unsqueeze(-1)
    return negs.scatter(2, column, new_tails.unsqueeze(-1))


def build_filter(
    known: Int[Tensor, "triples 3"], queries: Int[Tensor, "batch 3"], num_entities: int
) -> Bool[Tensor, "batch entities"]:
    tails_of = defaultdict(list)
    for h, r, t in known.tolist():
        tails_of[(h, r)].append(t)
    rows, cols = [], []
    for i, (h, r, _) in enumerate(queries.tolist()):
        for t in tails_of[(h, r)]:
            rows.append(i)
            cols.append(t)
    mask = torch.zeros(queries.size(0), num_entities, dtype=torch.bool)
    mask.index_put_((torch.tensor(rows, dtype=torch.long), torch.tensor(cols, dtype=torch.long)), torch.tensor(True))
    return mask


def filtered_tail_ranks(
    scores: Float[Tensor, "batch entities"], true_tails: Int[Tensor, "batch"], filter_mask: Bool[Tensor, "batch entities"]
) -> Float[Tensor, "batch"]:
    true_scores = scores.gather(1, true_tails.unsqueeze(1))
    other_known = filter_mask.scatter(1, true_tails.unsqueeze(1), False)
    scores = scores.masked_fill(other_known, float("-inf"))
    greater = (scores > true_scores).sum(dim=1)
    ties = (scores == true_scores).sum(dim=1)
    return greater.float() + 0.5 * (ties.float() + 1.0)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_entities, num_relations = 30, 4
    g = torch.Generator().manual_seed(1)
    triples = torch.stack(
        [
            torch.randint(0, num_entities, (80,), generator=g),
            torch.randint(0, num_relations, (80,), generator=g),
            torch.randint(0, num_entities, (80,), generator=g),
        ],
        dim=1,
    )
    model = DistMult(num_entities, num_relations)
    test = triples[:12]

    negs = corrupt_tails(test, 5, num_entities, torch.Generator().manual_seed(2))
    assert negs.shape == (12, 5, 3)
    for i in range(12):
        for k in range(5):
            assert negs[i, k, 0] == test[i, 0] and negs[i, k, 1] == test[i, 1]

    with torch.no_grad():
        scores = model.score_t(test[:, :2])
        for i in range(12):
            assert torch.allclose(scores[i, test[i, 2]], model.score_hrt(test[i : i + 1])[0], atol=1e-5)
        cand = torch.randint(0, num_entities, (12, 7), generator=g)
        restricted = model.score_t_restricted(test[:, :2], cand)
        for i in range(12):
            for k in range(7):
                assert restricted[i, k] == scores[i, cand[i, k]]

        mask = build_filter(triples, test, num_entities)
        ranks = filtered_tail_ranks(scores, test[:, 2], mask)
        for i, (h, r, t) in enumerate(test.tolist()):
            known = {int(tt) for hh, rr, tt in triples.tolist() if hh == h and rr == r}
            s_true = float(scores[i, t])
            greater = ties = 0
            for e in range(num_entities):
                if e != t and e in known:
                    continue
                v = float(scores[i, e])
                greater += v > s_true
                ties += v == s_true
            assert float(ranks[i]) == greater + 0.5 * (ties + 1)
    print("ok")
