import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size, n_embd):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx):
        # idx: (B, T) -> logits: (B, T, vocab_size)
        return self.lm_head(self.wte(idx))


def chunked_cross_entropy(logits, targets, chunk_size=128, ignore_index=-1):
    # logits: (B, T, V), targets: (B, T)
    if chunk_size == 0:
        logits = logits.reshape(-1, logits.size(-1))  # (B*T, V)
        targets = targets.reshape(-1)  # (B*T,)
        return F.cross_entropy(logits, targets, ignore_index=ignore_index)
    logit_chunks = logits.split(chunk_size, dim=1)
    target_chunks = targets.split(chunk_size, dim=1)
    losses = [
        F.cross_entropy(lc.reshape(-1, lc.size(-1)), tc.reshape(-1), ignore_index=ignore_index, reduction="sum")
        for lc, tc in zip(logit_chunks, target_chunks)
    ]
    n_valid = (targets != ignore_index).sum()
    return torch.stack(losses).sum() / n_valid


def make_batch(successor, batch_size, seq_len, prompt_len, generator):
    # input_ids: (B, T) sequences that follow the successor table
    # labels:    (B, T) copy of input_ids with the prompt masked out (-1)
    vocab_size = successor.numel()
    start = torch.randint(0, vocab_size, (batch_size,), generator=generator)
    rows = [start]
    for _ in range(seq_len - 1):
        rows.append(successor[rows[-1]])
    input_ids = torch.stack(rows, dim=1)
    labels = input_ids.clone()
    labels[:, :prompt_len] = -1
    return input_ids, labels


def train_step_loss(model, input_ids, labels):
    logits = model(input_ids)  # (B, T, V)
    return chunked_cross_entropy(logits[..., :-1, :], labels[..., 1:])


@torch.no_grad()
def validate(model, val_batches):
    losses = torch.zeros(len(val_batches))
    for k, (input_ids, labels) in enumerate(val_batches):
        logits = model(input_ids)  # (B, T, V)
        loss = chunked_cross_entropy(logits, labels, chunk_size=0)
        losses[k] = loss.item()
    return losses.mean()


def bigram_oracle(successor, scale=12.0):
    vocab_size = successor.numel()
    model = TinyCausalLM(vocab_size, vocab_size)
    with torch.no_grad():
        model.wte.weight.copy_(torch.eye(vocab_size))
        head = torch.zeros(vocab_size, vocab_size)
        head[successor, torch.arange(vocab_size)] = scale
        model.lm_head.weight.copy_(head)
    return model


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    vocab_size = 50
    successor = torch.randperm(vocab_size, generator=g)
    model = bigram_oracle(successor)
    val_batches = [make_batch(successor, 4, 16, 3, g) for _ in range(3)]
    val_loss = validate(model, val_batches)
    train_loss = torch.stack([train_step_loss(model, x, y) for x, y in val_batches]).mean()
    print(f"train loss on the same batches: {train_loss.item():.4f}")
    print(f"val loss:                       {val_loss.item():.4f}")
