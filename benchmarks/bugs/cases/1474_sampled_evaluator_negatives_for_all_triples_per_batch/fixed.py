"""Sampled rank-based link prediction evaluation: each test triple is ranked against its own 50 negatives."""
from collections import defaultdict

import torch
from torch import nn


def sample_negatives(eval_triples, known_triples, num_entities, num_samples, generator):
    known_tails = defaultdict(set)
    for h, r, t in known_triples.tolist():
        known_tails[(h, r)].add(t)
    tail_samples, negs_dict = [], {}
    for h, r, t in eval_triples.tolist():
        row = [t]  # the true tail is candidate 0
        while len(row) < num_samples:
            cand = int(torch.randint(num_entities, (1,), generator=generator))
            if cand != t and cand not in known_tails[(h, r)]:
                row.append(cand)
        tail_samples.append(row)
        negs_dict[(h, r, t)] = torch.tensor(row)
    return torch.tensor(tail_samples), negs_dict  # [num_eval_triples, num_samples]


class DistMult(nn.Module):
    def __init__(self, num_entities, num_relations, dim):
        super().__init__()
        self.entity = nn.Embedding(num_entities, dim)
        self.relation = nn.Embedding(num_relations, dim)

    def score_t(self, hr_batch):
        # hr_batch: [B, 2] -> [B, num_entities]
        return (self.entity(hr_batch[:, 0]) * self.relation(hr_batch[:, 1])) @ self.entity.weight.t()


class SampledRankBasedEvaluator:
    def __init__(self, eval_triples, known_triples, num_entities, num_negatives=50, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.tail_samples, self.negs_dict = sample_negatives(eval_triples, known_triples, num_entities, num_negatives, g)
        self.ranks = []

    def _update_ranks_(self, true_scores, all_scores, hrt_batch):
        # true_scores: [B]   all_scores: [B, num_entities]   hrt_batch: [B, 3]
        sampled_entities = torch.stack(
            [self.negs_dict[tuple(triple)] for triple in hrt_batch.tolist()], dim=0
        )  # [B, num_negatives]
        sampled_scores = all_scores.gather(1, sampled_entities)  # [B, num_negatives]
        ranks = 1 + (sampled_scores > true_scores.unsqueeze(1)).sum(dim=1)
        self.ranks.extend(ranks.tolist())

    @torch.no_grad()
    def evaluate(self, model, eval_triples, batch_size):
        for start in range(0, eval_triples.shape[0], batch_size):
            hrt_batch = eval_triples[start:start + batch_size]  # [B, 3]
            scores = model.score_t(hrt_batch[:, :2])  # [B, num_entities]
            true_scores = scores.gather(1, hrt_batch[:, 2:3]).squeeze(1)  # [B]
            self._update_ranks_(true_scores, scores, hrt_batch)
        ranks = torch.tensor(self.ranks, dtype=torch.float)
        return {"mrr": (1.0 / ranks).mean().item(), "hits_at_10": (ranks <= 10).float().mean().item()}


if __name__ == "__main__":
    torch.manual_seed(0)
    num_entities, num_relations = 200, 8
    train = torch.stack([torch.randint(num_entities, (1000,)), torch.randint(num_relations, (1000,)),
                         torch.randint(num_entities, (1000,))], dim=1)
    test = torch.stack([torch.randint(num_entities, (60,)), torch.randint(num_relations, (60,)),
                        torch.randint(num_entities, (60,))], dim=1)
    model = DistMult(num_entities, num_relations, dim=32)
    evaluator = SampledRankBasedEvaluator(test, torch.cat([train, test]), num_entities)
    metrics = evaluator.evaluate(model, test, batch_size=16)
    ref_ranks = []
    with torch.no_grad():
        for i, (h, r, t) in enumerate(test.tolist()):
            emb = model.entity.weight[h] * model.relation.weight[r]
            true = (emb * model.entity.weight[t]).sum().item()
            cands = evaluator.negs_dict[(h, r, t)].tolist()
            ref_ranks.append(1 + sum(1 for c in cands if (emb * model.entity.weight[c]).sum().item() > true + 1e-6))
    assert evaluator.ranks == ref_ranks, (evaluator.ranks, ref_ranks)
    assert abs(metrics["mrr"] - sum(1.0 / x for x in ref_ranks) / len(ref_ranks)) < 1e-6
    print("ok")
