import torch
import torch.nn as nn


class WordPooler(nn.Module):
    """Sum sub-word vectors into word vectors, then tag each word."""

    def __init__(self, hidden, num_tags):
        super().__init__()
        self.tagger = nn.Linear(hidden, num_tags)

    def pool(self, subword_repr, word_index, num_words):
        batch, _, hidden = subword_repr.shape
        word_repr = subword_repr.new_zeros(batch, num_words, hidden)
        word_repr[:, word_index] += subword_repr
        return word_repr

    def forward(self, subword_repr, word_index, num_words):
        return self.tagger(self.pool(subword_repr, word_index, num_words))


if __name__ == "__main__":
    torch.manual_seed(0)
    # "unbelievable results came in" -> un ##bel ##ievable results came in
    word_index = torch.tensor([0, 0, 0, 1, 2, 3])
    subword_repr = torch.randn(2, 6, 16)
    model = WordPooler(16, 5)
    words = model.pool(subword_repr, word_index, num_words=4)
    print("word 0 vector norm:", words[0, 0].norm().item())
    print("sum of its pieces  :", subword_repr[0, :3].sum(0).norm().item())
    print("tags", model(subword_repr, word_index, 4).argmax(-1))
