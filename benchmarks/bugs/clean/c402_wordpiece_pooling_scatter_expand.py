import torch
import torch.nn as nn


class WordPooler(nn.Module):
    """Average sub-word vectors into word vectors and build word-level one-hot tags.

    Args:
        num_tags (`int`): size of the tag set.
    """

    def __init__(self, num_tags):
        super().__init__()
        self.num_tags = num_tags

    def forward(self, subword_states, word_ids, num_words, tags):
        """
        Args:
            subword_states (`torch.FloatTensor` of shape `(num_subwords, hidden)`)
            word_ids (`torch.LongTensor` of shape `(num_subwords,)`): word of each sub-word, -1 for special tokens.
            num_words (`int`)
            tags (`torch.LongTensor` of shape `(num_words,)`): -1 marks unlabeled words.
        Returns:
            word states `(num_words, hidden)` and one-hot tags `(num_words, num_tags)`.
        """
        keep = torch.nonzero(word_ids >= 0, as_tuple=True)[0]
        states = subword_states.index_select(0, keep)
        ids = word_ids.index_select(0, keep)
        index = ids.unsqueeze(1).expand(-1, states.size(1))
        sums = torch.zeros(num_words, states.size(1)).scatter_add_(0, index, states)
        counts = torch.zeros(num_words).index_add_(0, ids, torch.ones(len(ids)))
        pooled = sums / counts.clamp(min=1).unsqueeze(1)

        unlabeled = torch.nonzero(tags < 0).squeeze(1)
        onehot = torch.zeros(num_words, self.num_tags)
        onehot.scatter_(1, tags.clamp(min=0).unsqueeze(1), 1.0)
        onehot.index_fill_(0, unlabeled, 0.0)
        return pooled, onehot


if __name__ == "__main__":
    torch.manual_seed(0)
    states = torch.randn(9, 6)
    word_ids = torch.tensor([-1, 0, 0, 1, 2, 2, 2, 3, -1])
    tags = torch.tensor([2, -1, 0, 4])
    pooled, onehot = WordPooler(5)(states, word_ids, 4, tags)
    for w in range(4):
        rows = [states[i] for i in range(9) if word_ids[i] == w]
        assert torch.allclose(pooled[w], torch.stack(rows).mean(0), atol=1e-6)
        for k in range(5):
            assert onehot[w, k].item() == (1.0 if tags[w] >= 0 and k == tags[w] else 0.0)
    print("ok")
