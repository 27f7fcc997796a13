import torch
import torch.nn as nn


def last_token_positions(attention_mask):
    """Index of the last non-padding token of every (right-padded) sequence.

    Args:
        attention_mask (`torch.LongTensor` of shape `(batch_size, seq_len)`): 1 for tokens, 0 for padding.

    Returns:
        `torch.LongTensor` of shape `(batch_size,)`.
    """
    return torch.argmin(attention_mask, dim=1) - 1


class LastTokenPooling(nn.Module):
    """Sentence embedding taken from the hidden state of each sequence's final token."""

    def forward(self, token_embeddings, attention_mask):
        """
        Args:
            token_embeddings (`torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`)
            attention_mask (`torch.LongTensor` of shape `(batch_size, seq_len)`)

        Returns:
            `torch.FloatTensor` of shape `(batch_size, hidden_size)`.
        """
        hidden = token_embeddings.shape[-1]
        pos = last_token_positions(attention_mask)
        index = pos.view(-1, 1, 1).expand(-1, 1, hidden)
        return torch.gather(token_embeddings, 1, index).squeeze(1)


def encode(lengths, hidden_size=16):
    max_len = max(lengths)
    mask = torch.zeros(len(lengths), max_len, dtype=torch.long)
    for i, n in enumerate(lengths):
        mask[i, :n] = 1
    token_embeddings = torch.randn(len(lengths), max_len, hidden_size)
    return token_embeddings, mask


if __name__ == "__main__":
    torch.manual_seed(0)
    token_embeddings, mask = encode([5, 9, 3, 7])
    sentence_emb = LastTokenPooling()(token_embeddings, mask)
    print("pooled:", tuple(sentence_emb.shape), sentence_emb.norm(dim=-1))
