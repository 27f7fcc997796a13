import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence

PAD_LABEL = -1


class TinyLMHeadModel(nn.Module):
    def __init__(self, vocab_size=50, n_embd=16):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.block = nn.GRU(n_embd, n_embd, batch_first=True)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, input_ids, lm_labels=None):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                Indices of input sequence tokens in the vocabulary.
            lm_labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`, *optional*):
                Labels for language modeling, indices selected in `[-1, 0, ..., vocab_size - 1]`.
                All labels set to `-1` are ignored (masked).

        Returns:
            `torch.FloatTensor` of shape `(batch_size, sequence_length, vocab_size)` (logits), or
            the mean token loss when `lm_labels` is given.
        """
        hidden, _ = self.block(self.wte(input_ids))
        logits = self.lm_head(hidden)
        if lm_labels is None:
            return logits
        shift_logits = logits[:, :-1]
        shift_labels = lm_labels[:, 1:]
        log_probs = shift_logits.log_softmax(dim=-1)
        mask = shift_labels.ne(PAD_LABEL)
        safe_labels = shift_labels.masked_fill(~mask, 0)
        token_lp = log_probs.gather(-1, safe_labels.unsqueeze(-1)).squeeze(-1)
        return -(token_lp * mask).sum() / mask.sum()


def collate(examples):
    ids = pad_sequence([torch.tensor(e) for e in examples], batch_first=True, padding_value=0)
    labels = pad_sequence([torch.tensor(e) for e in examples], batch_first=True, padding_value=PAD_LABEL)
    return ids, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLMHeadModel()
    batch = collate([[5, 12, 7, 7, 9, 3], [5, 12, 41, 3]])
    loss = model(*batch)
    ids, labels = batch
    lp = model(ids).log_softmax(dim=-1)
    total, count = 0.0, 0
    for b in range(ids.size(0)):
        for t in range(ids.size(1) - 1):
            y = int(labels[b, t + 1])
            if y != PAD_LABEL:
                total += -lp[b, t, y].item()
                count += 1
    assert abs(loss.item() - total / count) < 1e-5
    print("ok")
