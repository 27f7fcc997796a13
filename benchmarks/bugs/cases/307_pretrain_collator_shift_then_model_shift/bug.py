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
        dict with `input_ids` and `labels`, each `(batch_size, block_size)`.
    """
    token_ids = torch.stack(examples)
    return {"input_ids": token_ids[:, :-1], "labels": token_ids[:, 1:]}


def train_chunk(model, examples):
    batch = collate_fn(examples)
    loss, logits = model(batch["input_ids"], labels=batch["labels"])
    return loss, logits, batch


def main():
    torch.manual_seed(0)
    model = TinyCausalLM()
    examples = [torch.randint(0, 50, (17,)) for _ in range(4)]
    loss, logits, batch = train_chunk(model, examples)
    print("loss:", loss.item())
    print("position 0 scored against token:", int(batch["labels"][0, 1]), "next token is:", int(examples[0][1]))


if __name__ == "__main__":
    main()
