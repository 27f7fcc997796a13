import torch
import torch.nn as nn


class TransEInteraction(nn.Module):
    """TransE scores for batches of triples with sampled negatives.

    Args:
        num_entities: size of the entity vocabulary.
        num_relations: size of the relation vocabulary.
        dim: embedding dimension.
        p: norm used for the translation distance.
    """

    def __init__(self, num_entities: int, num_relations: int, dim: int = 32, p: int = 2):
        super().__init__()
        self.entities = nn.Embedding(num_entities, dim)
        self.relations = nn.Embedding(num_relations, dim)
        self.p = p

    def lookup(self, table: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
        """Rows of ``table`` for ids of any shape.

        Args:
            table: (num_rows, dim) weight matrix.
            ids: integer ids of shape (*prefix).

        Returns:
            Tensor of shape (*prefix, dim).
        """
        flat = torch.index_select(table, dim=0, index=ids.reshape(-1))
        return flat.view(*ids.shape, table.size(-1))

    def score_t(self, hr_batch: torch.LongTensor, tails: torch.LongTensor) -> torch.Tensor:
        """Score each (h, r) pair against its own candidate tails.

        Args:
            hr_batch: (batch_size, 2) head and relation ids.
            tails: (batch_size, num_candidates) candidate tail ids.

        Returns:
            Scores of shape (batch_size, num_candidates), higher is better.
        """
        h = self.lookup(self.entities.weight, hr_batch[:, 0:1])
        r = self.lookup(self.relations.weight, hr_batch[:, 1:2])
        t = self.entities(tails)
        return -torch.linalg.vector_norm(h + r - t, ord=self.p, dim=-1)

    def score_all_tails(self, hr_batch: torch.LongTensor) -> torch.Tensor:
        """Score against every entity.

        Args:
            hr_batch: (batch_size, 2) head and relation ids.

        Returns:
            Scores of shape (batch_size, num_entities).
        """
        h = self.entities.weight.index_select(0, hr_batch[:, 0])
        r = self.relations.weight.index_select(0, hr_batch[:, 1])
        return -torch.cdist(h + r, self.entities.weight, p=self.p)


def filtered_rank(scores: torch.Tensor, true_tails: torch.LongTensor, known: torch.BoolTensor) -> torch.Tensor:
    """Rank of the true tail after removing other known true tails.

    Args:
        scores: (batch_size, num_entities).
        true_tails: (batch_size,) ids of the tails to rank.
        known: (batch_size, num_entities) True where another true triple exists.

    Returns:
        1-based ranks of shape (batch_size,).
    """
    true_scores = scores.gather(1, true_tails.unsqueeze(1))
    filtered = scores.masked_fill(known, float("-inf"))
    filtered = filtered.scatter(1, true_tails.unsqueeze(1), true_scores)
    return (filtered > true_scores).sum(dim=1) + 1


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TransEInteraction(num_entities=25, num_relations=3)
    hr = torch.stack([torch.randint(0, 25, (4,)), torch.randint(0, 3, (4,))], dim=1)
    tails = torch.randint(0, 25, (4, 6))
    with torch.no_grad():
        s = model.score_t(hr, tails)
        ref = torch.empty(4, 6)
        for b in range(4):
            for j in range(6):
                d = model.entities.weight[hr[b, 0]] + model.relations.weight[hr[b, 1]] - model.entities.weight[tails[b, j]]
                ref[b, j] = -d.norm(p=2)
        assert torch.allclose(s, ref, atol=1e-5)
        full = model.score_all_tails(hr)
        assert torch.allclose(full.gather(1, tails), s, atol=1e-4)
        true_tails = tails[:, 0]
        known = torch.zeros(4, 25, dtype=torch.bool)
        known[0, 3] = True
        ranks = filtered_rank(full, true_tails, known)
        for b in range(4):
            better = [e for e in range(25) if e != int(true_tails[b]) and not known[b, e] and full[b, e] > full[b, true_tails[b]]]
            assert int(ranks[b]) == len(better) + 1
    print("ok")
