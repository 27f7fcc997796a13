import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def bag_of_words(
    token_ids: Int[Tensor, "batch seq"],
    token_weights: Float[Tensor, "batch seq"],
    vocab_size: int,
) -> Float[Tensor, "batch vocab"]:
    bow = torch.zeros(token_ids.size(0), vocab_size, dtype=token_weights.dtype)
    return bow.scatter_add_(1, token_ids, token_weights)


class BowClassifier(nn.Module):
    def __init__(self, vocab_size: int, num_labels: int):
        super().__init__()
        self.vocab_size = vocab_size
        self.proj = nn.Linear(vocab_size, num_labels)

    def forward(
        self, token_ids: Int[Tensor, "batch seq"], attention_mask: Int[Tensor, "batch seq"]
    ) -> Float[Tensor, "batch labels"]:
        bow = bag_of_words(token_ids, attention_mask.float(), self.vocab_size)
        bow = bow / bow.sum(dim=-1, keepdim=True).clamp(min=1.0)
        return self.proj(bow)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 12
    ids = torch.tensor([[3, 5, 3, 3, 7, 0], [2, 2, 9, 4, 0, 0]])
    mask = (ids != 0).long()
    counts = bag_of_words(ids, mask.float(), vocab)
    for b in range(ids.size(0)):
        ref = [0.0] * vocab
        for t, m in zip(ids[b].tolist(), mask[b].tolist()):
            ref[t] += float(m)
        assert counts[b].tolist() == ref
    assert BowClassifier(vocab, 3)(ids, mask).shape == (2, 3)
    print("ok")
