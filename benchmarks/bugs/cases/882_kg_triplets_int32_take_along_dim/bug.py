import io

import numpy as np
import torch
from jaxtyping import Float, Int

RAW_TRIPLES = "0\t1\t4\n2\t0\t3\n5\t1\t0\n3\t2\t6\n"


def load_raw_triplet_data(text: str):
    arr = np.loadtxt(io.StringIO(text), dtype=np.int32, delimiter="\t")
    heads, rels, tails = arr[:, 0], arr[:, 1], arr[:, 2]
    return torch.from_numpy(heads), torch.from_numpy(rels), torch.from_numpy(tails)


class DistMult(torch.nn.Module):
    def __init__(self, n_entities: int, n_relations: int, dim: int):
        super().__init__()
        self.ent = torch.nn.Parameter(torch.randn(n_entities, dim))
        self.rel = torch.nn.Parameter(torch.randn(n_relations, dim))

    def score_all_tails(
        self, heads: Int[torch.Tensor, "batch"], rels: Int[torch.Tensor, "batch"]
    ) -> Float[torch.Tensor, "batch entities"]:
        hr = self.ent[heads] * self.rel[rels]
        return hr @ self.ent.t()


def true_tail_scores(
    scores: Float[torch.Tensor, "batch entities"], tails: Int[torch.Tensor, "batch"]
) -> Float[torch.Tensor, "batch"]:
    return torch.take_along_dim(scores, tails.unsqueeze(1), dim=1).squeeze(1)


def predict(model: DistMult, text: str) -> Float[torch.Tensor, "batch"]:
    heads, rels, tails = load_raw_triplet_data(text)
    with torch.no_grad():
        scores = model.score_all_tails(heads, rels)
        pos = true_tail_scores(scores, tails)
        ranks = (scores > pos.unsqueeze(1)).sum(dim=1) + 1
    return ranks


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DistMult(n_entities=7, n_relations=3, dim=8)
    print("ranks:", predict(model, RAW_TRIPLES).tolist())
