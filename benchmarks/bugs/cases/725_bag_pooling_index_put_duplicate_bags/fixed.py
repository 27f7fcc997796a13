import torch
import torch.nn as nn
from jaxtyping import Float, Int


class BagSumEncoder(nn.Module):
    """Sum of token embeddings per bag (like nn.EmbeddingBag(mode='sum'))."""

    def __init__(self, vocab: int, dim: int):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)

    def forward(
        self,
        tokens: Int[torch.Tensor, "n_tokens"],
        bag_ids: Int[torch.Tensor, "n_tokens"],
        n_bags: int,
    ) -> Float[torch.Tensor, "n_bags dim"]:
        vecs: Float[torch.Tensor, "n_tokens dim"] = self.emb(tokens)
        out = vecs.new_zeros(n_bags, vecs.shape[1])
        out.index_put_((bag_ids,), vecs, accumulate=True)
        return out


def flatten_bags(bags: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    tokens = torch.tensor([t for bag in bags for t in bag])
    bag_ids = torch.tensor([i for i, bag in enumerate(bags) for _ in bag])
    return tokens, bag_ids


if __name__ == "__main__":
    torch.manual_seed(0)
    enc = BagSumEncoder(vocab=30, dim=4)
    bags = [[3, 7, 7, 1], [12], [5, 9]]
    tokens, bag_ids = flatten_bags(bags)
    pooled = enc(tokens, bag_ids, n_bags=len(bags))
    for i, bag in enumerate(bags):
        ref = torch.zeros(4)
        for t in bag:
            ref = ref + enc.emb.weight[t]
        assert torch.allclose(pooled[i], ref, atol=1e-6)
    print("ok")
