import torch
from jaxtyping import Float, Int
from torch import Tensor


class TypeEmbeddingPool:
    """Averages contextual token vectors into one static vector per vocabulary id."""

    def __init__(self, vocab_size: int, dim: int):
        self.sums: Float[Tensor, "vocab dim"] = torch.zeros(vocab_size, dim)
        self.counts: Float[Tensor, "vocab"] = torch.zeros(vocab_size)

    def update(self, token_ids: Int[Tensor, "ntok"], hidden: Float[Tensor, "ntok dim"]) -> None:
        self.sums[token_ids] += hidden
        self.counts[token_ids] += 1

    def static_vectors(self) -> Float[Tensor, "vocab dim"]:
        return self.sums / self.counts.clamp_min(1).unsqueeze(-1)


def encode(token_ids: Int[Tensor, "ntok"], table: Float[Tensor, "vocab dim"]) -> Float[Tensor, "ntok dim"]:
    # stand-in for a contextual encoder: a position-dependent perturbation of a static table
    pos = torch.arange(token_ids.shape[0], dtype=torch.float32).unsqueeze(-1)
    return table[token_ids] + 0.1 * pos


if __name__ == "__main__":
    torch.manual_seed(0)
    table = torch.randn(12, 4)
    pool = TypeEmbeddingPool(vocab_size=12, dim=4)
    sentence = torch.tensor([3, 7, 3, 3, 5, 7, 1])
    pool.update(sentence, encode(sentence, table))
    print("occurrences of id 3 counted:", pool.counts[3].item(), "(appears 3 times)")
    print("static vector for id 3:", pool.static_vectors()[3].tolist())
