import math

import torch
from torch import nn


class BasicNegativeSampler:
    """Corrupt heads, relations or tails of positive triples uniformly at random."""

    def __init__(self, num_entities, num_relations, num_negs_per_pos, corruption_scheme=("head", "relation", "tail")):
        self.num_entities = num_entities
        self.num_relations = num_relations
        self.num_negs_per_pos = num_negs_per_pos
        self._corruption_indices = [{"head": 0, "relation": 1, "tail": 2}[side] for side in corruption_scheme]

    def corrupt_batch(self, positive_batch, generator=None):
        """Sample negatives for a batch of positive triples.

        :param positive_batch: shape: (batch_size, 3)
            The positive (head, relation, tail) id triples.
        :return: shape: (batch_size * num_negs_per_pos, 3)
            The negative triples; row ``i * num_negs_per_pos + j`` corrupts positive ``i``.
        """
        negative_batch = positive_batch.repeat_interleave(self.num_negs_per_pos, dim=0)
        num_negs = negative_batch.shape[0]
        split_idx = math.ceil(num_negs / len(self._corruption_indices))
        negative_entities = torch.randint(self.num_entities - 1, (num_negs,), generator=generator)
        negative_relations = torch.randint(self.num_relations - 1, (num_negs,), generator=generator)
        for index, start in zip(self._corruption_indices, range(0, num_negs, split_idx)):
            stop = min(start + split_idx, num_negs)
            # shift ids >= the original id up by one so the positive id is never drawn
            if index == 1:
                keep_apart = negative_relations[start:stop] >= negative_batch[start:stop, 1]
                negative_batch[start:stop, 1] = negative_relations[start:stop] + keep_apart.long()
            else:
                keep_apart = negative_entities[start:stop] >= negative_batch[start:stop, index]
                negative_batch[start:stop, index] = negative_entities[start:stop] + keep_apart.long()
        return negative_batch


class TransE(nn.Module):
    def __init__(self, num_entities, num_relations, embedding_dim):
        super().__init__()
        self.entity_embeddings = nn.Embedding(num_entities, embedding_dim)
        self.relation_embeddings = nn.Embedding(num_relations, embedding_dim)

    def score_hrt(self, hrt_batch):
        """Score triples.

        :param hrt_batch: shape: (batch_size, 3)
        :return: shape: (batch_size,)
        """
        h = self.entity_embeddings(hrt_batch[:, 0])
        r = self.relation_embeddings(hrt_batch[:, 1])
        t = self.entity_embeddings(hrt_batch[:, 2])
        return -(h + r - t).norm(p=2, dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    num_entities, num_relations = 14, 55  # a Nations-like graph: few countries, many relation types
    positives = torch.stack([
        torch.randint(num_entities, (32,)), torch.randint(num_relations, (32,)), torch.randint(num_entities, (32,))
    ], dim=-1)
    sampler = BasicNegativeSampler(num_entities, num_relations, num_negs_per_pos=3)
    model = TransE(num_entities, num_relations, embedding_dim=16)
    negatives = sampler.corrupt_batch(positives, generator=g)
    with torch.no_grad():
        scores = model.score_hrt(negatives)
    pos_rep = positives.repeat_interleave(3, dim=0)
    ent, rel = model.entity_embeddings.weight, model.relation_embeddings.weight
    for i in range(negatives.shape[0]):
        h, r, t = negatives[i].tolist()
        assert 0 <= h < num_entities and 0 <= r < num_relations and 0 <= t < num_entities
        assert sum(int(a != b) for a, b in zip(negatives[i].tolist(), pos_rep[i].tolist())) == 1
        ref = -(ent[h] + rel[r] - ent[t]).norm(p=2)
        assert torch.allclose(scores[i], ref, atol=1e-5)
    print("ok")
