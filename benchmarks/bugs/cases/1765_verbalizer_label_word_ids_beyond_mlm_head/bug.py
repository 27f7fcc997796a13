import torch
from torch import nn


class MaskedLMHead(nn.Module):
    def __init__(self, hidden_size, vocab_size):
        super().__init__()
        self.decoder = nn.Linear(hidden_size, vocab_size)

    def forward(self, hidden):
        return self.decoder(hidden)  # [B, L, V]


def add_label_words(vocab, words):
    ids = []
    for w in words:
        if w not in vocab:
            vocab[w] = len(vocab)
        ids.append(vocab[w])
    return torch.tensor(ids)


def verbalize(head, hidden, mask_pos, label_word_ids):
    # hidden: [B, L, H], mask_pos: [B], label_word_ids: [C]
    logits = head(hidden)                                            # [B, L, V]
    mask_logits = logits[torch.arange(hidden.shape[0]), mask_pos]    # [B, V]
    return mask_logits[:, label_word_ids]                            # [B, C]


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = {f"tok{i}": i for i in range(500)}
    base_vocab_size = len(vocab)
    label_word_ids = add_label_words(vocab, ["tok7", "<great>", "<terrible>"])
    head = MaskedLMHead(32, base_vocab_size)
    hidden = torch.randn(4, 12, 32)
    mask_pos = torch.tensor([3, 0, 11, 6])
    with torch.no_grad():
        scores = verbalize(head, hidden, mask_pos, label_word_ids)
        full = head(hidden)
    for b in range(4):
        for c in range(len(label_word_ids)):
            assert torch.allclose(scores[b, c], full[b, mask_pos[b], label_word_ids[c]])
    print("ok")
