import torch
import torch.nn as nn


class WordPooler(nn.Module):
    """Average sub-word hidden states into word vectors for a token-classification head."""

    def __init__(self, hidden_size, num_tags):
        super().__init__()
        self.classifier = nn.Linear(hidden_size, num_tags)

    def pool(self, hidden_states, word_ids, num_words):
        """
        Args:
            hidden_states (`torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`):
                Encoder output; padded positions are zero.
            word_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`):
                Index of the word each sub-word belongs to; padded positions hold 0.
            num_words (`int`): number of word slots per example.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, num_words, hidden_size)`.
        """
        b, _, h = hidden_states.shape
        index = word_ids.unsqueeze(-1).expand(-1, -1, h)
        sums = hidden_states.new_zeros(b, num_words, h).scatter_add_(1, index, hidden_states)
        counts = hidden_states.new_zeros(b, num_words).scatter_add_(1, word_ids, torch.ones_like(word_ids, dtype=hidden_states.dtype))
        return sums / counts.clamp(min=1).unsqueeze(-1)

    def forward(self, hidden_states, word_ids, num_words):
        return self.classifier(self.pool(hidden_states, word_ids, num_words))


def encode_batch(sentences, hidden_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    seq_len = max(len(s) for s in sentences)
    hidden = torch.zeros(len(sentences), seq_len, hidden_size)
    word_ids = torch.zeros(len(sentences), seq_len, dtype=torch.long)
    for i, pieces in enumerate(sentences):
        hidden[i, : len(pieces)] = torch.randn(len(pieces), hidden_size, generator=g) + 1.0
        word_ids[i, : len(pieces)] = torch.tensor(pieces)
    return hidden, word_ids


if __name__ == "__main__":
    sentences = [[0, 0, 1, 2, 2, 2, 3], [0, 1, 1, 2]]
    hidden, word_ids = encode_batch(sentences, hidden_size=6)
    pooler = WordPooler(6, 3)
    words = pooler.pool(hidden, word_ids, num_words=4)
    print("word 0 of sentence 1, pooled:", words[1, 0])
    print("word 0 of sentence 1, its only sub-word:", hidden[1, 0])
