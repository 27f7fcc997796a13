import torch
import torch.nn as nn
from jaxtyping import Float, Int


class WordPooler(nn.Module):
    """Sums sub-word vectors into the word they belong to."""

    def __init__(self, hidden: int, num_words: int):
        super().__init__()
        self.num_words = num_words
        self.proj = nn.Linear(hidden, hidden)

    def forward(
        self,
        subword_feats: Float[torch.Tensor, "pieces hidden"],
        word_ids: Int[torch.Tensor, "pieces"],
    ) -> Float[torch.Tensor, "words hidden"]:
        feats = self.proj(subword_feats)
        words = feats.new_zeros(self.num_words, feats.size(-1))
        words = words.index_put((word_ids,), feats, accumulate=True)
        return words


def pool_sentence(pooler, feats, word_ids):
    with torch.no_grad():
        return pooler(feats, word_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    pooler = WordPooler(hidden=4, num_words=5)
    # "un ##believ ##able news , to day" -> 5 words, repeated ids for split words
    word_ids = torch.tensor([0, 0, 0, 1, 2, 3, 3, 4])
    feats = torch.randn(8, 4)
    words = pool_sentence(pooler, feats, word_ids)
    projected = pooler.proj(feats).detach()
    ref = [[0.0] * 4 for _ in range(5)]
    for p, w in enumerate(word_ids.tolist()):
        for h in range(4):
            ref[w][h] += projected[p, h].item()
    assert torch.allclose(words, torch.tensor(ref), atol=1e-5)
    print("ok")
