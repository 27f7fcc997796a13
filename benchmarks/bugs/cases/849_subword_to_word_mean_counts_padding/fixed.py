import torch
import torch.nn as nn


class WordPooler(nn.Module):
    """Average sub-word hidden states into word vectors for a token-classification head."""

    def __init__(self, hidden_size, num_tags):
        super().__init__()
        self.classifier = nn.Linear(hidden_size, num_tags)

    def pool(self, hidden_states, word_ids, attention_mask, num_words):
        """
        Args:
            hidden_states (`torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`):
                Encoder output; padded positions are zero.
            word_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`):
                Index of the word each sub-word belongs to; padded positions hold 0.
            attention_mask (`torch.LongTensor` of shape `(batch_size, seq_len)`):
                1 for real sub-words, 0 for padding.
            num_words (`int`): number of word slots per example.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, num_words, hidden_size)`.
        """
        b, _, h = hidden_states.shape
        index = word_ids.unsqueeze(-1).expand(-1, -1, h)
        sums = hidden_states.new_zeros(b, num_words, h).scatter_add_(1, index, hidden_states)
        counts = hidden_states.new_zeros(b, num_words).scatter_add_(1, word_ids, attention_mask.to(hidden_states.dtype))
        return sums / counts.clamp(min=1).unsqueeze(-1)

    def forward(self, hidden_states, word_ids, attention_mask, num_words):
        return self.classifier(self.pool(hidden_states, word_ids, attention_mask, num_words))


def encode_batch(sentences, hidden_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    seq_len = max(len(s) for s in sentences)
    hidden = torch.zeros(len(sentences), seq_len, hidden_size)
    word_ids = torch.zeros(len(sentences), seq_len, dtype=torch.long)
    mask = torch.zeros(len(sentences), seq_len, dtype=torch.long)
    for i, pieces in enumerate(sentences):
        hidden[i, : len(pieces)] = torch.randn(len(pieces), hidden_size, generator=g) + 1.0
        word_ids[i, : len(pieces)] = torch.tensor(pieces)
        mask[i, : len(pieces)] = 1
    return hidden, word_ids, mask


if __name__ == "__main__":
    sentences = [[0, 0, 1, 2, 2, 2, 3], [0, 1, 1, 2]]
    hidden, word_ids, mask = encode_batch(sentences, hidden_size=6)
    pooler = WordPooler(6, 3)
    words = pooler.pool(hidden, word_ids, mask, num_words=4)
    for b, pieces in enumerate(sentences):
        for w in range(4):
            rows = [hidden[b, t] for t, wid in enumerate(pieces) if wid == w]
            expected = torch.stack(rows).mean(0) if rows else torch.zeros(6)
            assert torch.allclose(words[b, w], expected, atol=1e-6)
    assert pooler(hidden, word_ids, mask, 4).shape == (2, 4, 3)
    print("ok")
