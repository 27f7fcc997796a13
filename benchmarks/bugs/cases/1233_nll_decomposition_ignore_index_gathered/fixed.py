import torch
import torch.nn.functional as F
from jaxtyping import Float, Int

IGNORE_INDEX = -100


def collate(samples: list[dict]) -> dict:
    """Right-pad a list of tokenized samples; padded label positions get IGNORE_INDEX."""
    longest = max(len(s["input_ids"]) for s in samples)
    input_ids = torch.zeros(len(samples), longest, dtype=torch.long)
    labels = torch.full((len(samples), longest), IGNORE_INDEX, dtype=torch.long)
    for row, s in enumerate(samples):
        n = len(s["input_ids"])
        input_ids[row, :n] = torch.tensor(s["input_ids"])
        labels[row, :n] = torch.tensor(s["labels"])
    return {"input_ids": input_ids, "labels": labels}


def nll_loss_decomposed(
    logits: Float[torch.Tensor, "batch seq vocab"],
    labels: Int[torch.Tensor, "batch seq"],
) -> Float[torch.Tensor, ""]:
    logp = F.log_softmax(logits.float(), dim=-1)
    valid = labels != IGNORE_INDEX
    safe_labels = torch.where(valid, labels, torch.zeros_like(labels))
    token_logp = torch.gather(logp, -1, safe_labels.unsqueeze(-1)).squeeze(-1)
    token_logp = torch.where(valid, token_logp, torch.zeros_like(token_logp))
    return -token_logp.sum() / valid.sum().clamp(min=1)


class TinyLM(torch.nn.Module):
    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab_size, hidden)
        self.head = torch.nn.Linear(hidden, vocab_size)

    def forward(self, input_ids: Int[torch.Tensor, "batch seq"]) -> Float[torch.Tensor, "batch seq vocab"]:
        return self.head(torch.tanh(self.embed(input_ids)))


if __name__ == "__main__":
    torch.manual_seed(0)
    samples = [
        {"input_ids": [5, 9, 3, 7, 2], "labels": [9, 3, 7, 2, 1]},
        {"input_ids": [4, 8, 6], "labels": [8, 6, 1]},
    ]
    batch = collate(samples)
    model = TinyLM(vocab_size=16, hidden=8)
    loss = nll_loss_decomposed(model(batch["input_ids"]), batch["labels"])
    logits = model(batch["input_ids"])
    lp = F.log_softmax(logits.float(), dim=-1)
    total, count = 0.0, 0
    for b in range(lp.shape[0]):
        for t in range(lp.shape[1]):
            y = batch["labels"][b, t].item()
            if y != IGNORE_INDEX:
                total -= lp[b, t, y].item()
                count += 1
    assert abs(loss.item() - total / count) < 1e-5
    assert abs(loss.item() - F.cross_entropy(logits.transpose(1, 2), batch["labels"]).item()) < 1e-5
    print("ok")
