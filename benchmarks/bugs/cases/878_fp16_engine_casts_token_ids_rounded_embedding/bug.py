import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab_size=5000, hidden=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids, attention_mask=None):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`):
                Indices of input tokens in the vocabulary.
            attention_mask (`torch.Tensor` of shape `(batch_size, seq_len)`, *optional*)

        Returns:
            hidden states (`torch.FloatTensor` of shape `(batch_size, seq_len, hidden)`)
        """
        input_ids = input_ids.long()
        hidden = self.embed_tokens(input_ids)
        if attention_mask is not None:
            hidden = hidden * attention_mask.unsqueeze(-1).to(hidden.dtype)
        return hidden


class HalfPrecisionEngine:
    """Wraps a model and casts its inputs for fp16 training."""

    def __init__(self, module):
        self.module = module

    def __call__(self, *args, **kwargs):
        args = tuple(a.half() if torch.is_tensor(a) else a for a in args)
        kwargs = {k: v.half() if torch.is_tensor(v) and v.is_floating_point() else v for k, v in kwargs.items()}
        return self.module(*args, **kwargs)


def training_step(engine, batch):
    return engine(batch["input_ids"], attention_mask=batch["attention_mask"].float())


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM()
    engine = HalfPrecisionEngine(model)
    batch = {"input_ids": torch.tensor([[1, 2049, 3001, 4097]]), "attention_mask": torch.ones(1, 4, dtype=torch.long)}
    hidden = training_step(engine, batch)
    with torch.no_grad():
        expected = model.embed_tokens(batch["input_ids"])
    print("rows that differ from the true token embeddings:", (hidden != expected).any(-1).nonzero()[:, 1].tolist())
