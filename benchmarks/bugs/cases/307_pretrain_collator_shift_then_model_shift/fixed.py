import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=50, hidden=32):
        super().__init__()
        self.vocab_size = vocab_size
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids, labels=None):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                Indices of input sequence tokens in the vocabulary.
            labels (`torch.LongTensor` of shape `(batch_size, sequence_length)`, *optional*):
                Labels for language modeling. Indices are aligned with `input_ids`; the model
                shifts them internally so that tokens < n predict n.

        Returns:
            `tuple(torch.FloatTensor)`: loss (scalar, if labels given) and logits of shape
            `(batch_size, sequence_length, vocab_size)`.
        """
        hidden, _ = self.rnn(self.embed(input_ids))
        logits = self.lm_head(hidden)
        loss = None
        if labels is not None:
            shift_logits = logits[..., :-1, :].contiguous()
            shift_labels = labels[..., 1:].contiguous()
            loss = F.cross_entropy(shift_logits.view(-1, self.vocab_size), shift_labels.view(-1))
        return loss, logits


def collate_fn(examples):
    """
    Args:
        examples (list of `torch.LongTensor` of shape `(block_size + 1,)`): token chunks.

    Returns:
        dict with `input_ids` and `labels`, each `(batch_size, block_size + 1)`; the model shifts.
    """
    token_ids = torch.stack(examples)
    return {"input_ids": token_ids, "labels": token_ids.clone()}


def train_chunk(model, examples):
    batch = collate_fn(examples)
    loss, logits = model(batch["input_ids"], labels=batch["labels"])
    return loss, logits, batch


def main():
    torch.manual_seed(0)
    model = TinyCausalLM()
    examples = [torch.randint(0, 50, (17,)) for _ in range(4)]
    loss, logits, batch = train_chunk(model, examples)
    logp = torch.log_softmax(logits.detach(), dim=-1)
    total, count = 0.0, 0
    for b, ex in enumerate(examples):
        for t in range(len(ex) - 1):
            total -= float(logp[b, t, int(ex[t + 1])])
            count += 1
    assert abs(loss.item() - total / count) < 1e-4, (loss.item(), total / count)
    print("ok")


if __name__ == "__main__":
    main()
