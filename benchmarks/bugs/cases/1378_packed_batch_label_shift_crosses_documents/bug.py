import torch
import torch.nn as nn
import torch.nn.functional as F

IGNORE_INDEX = -100


class TinyLM(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.mix = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab_size)

    def forward(self, tokens):
        h = self.embed(tokens)
        h = h + torch.tanh(self.mix(h.cumsum(1) / torch.arange(1, tokens.size(1) + 1)[None, :, None]))
        return self.head(h)


def text_completion_sample(token_ids):
    # the recipe shifts the labels, so the dataset keeps them aligned with the tokens
    return {"tokens": list(token_ids), "labels": list(token_ids)}


def pack(samples, max_len, pad_id=0):
    tokens, labels = [], []
    for s in samples:
        tokens += s["tokens"]
        labels += s["labels"]
    pad = max_len - len(tokens)
    return {"tokens": tokens + [pad_id] * pad, "labels": labels + [IGNORE_INDEX] * pad}


class Recipe:
    def __init__(self, model, batch_size):
        self.model = model
        self.ignore_labels_cache = torch.full((batch_size, 1), IGNORE_INDEX)

    def loss_step(self, batch):
        tokens, labels = batch["tokens"], batch["labels"]
        logits = self.model(tokens)
        # shift labels instead of slicing the logits
        labels = torch.hstack((labels[..., 1:], self.ignore_labels_cache[: labels.size(0)]))
        logp = F.log_softmax(logits.float(), dim=-1)
        valid = labels != IGNORE_INDEX
        token_logp = logp.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)
        return -(token_logp * valid).sum() / valid.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM(64, 32)
    docs = [torch.randint(1, 64, (n,)).tolist() for n in (9, 5, 12, 7, 6, 10)]
    packs = [pack([text_completion_sample(d) for d in docs[:3]], 32),
             pack([text_completion_sample(d) for d in docs[3:]], 32)]
    batch = {k: torch.tensor([p[k] for p in packs]) for k in ("tokens", "labels")}
    loss = Recipe(model, batch_size=2).loss_step(batch)

    logp = F.log_softmax(model(batch["tokens"]).float(), dim=-1)
    total, count = 0.0, 0
    for b, group in enumerate((docs[:3], docs[3:])):
        start = 0
        for d in group:
            for t in range(len(d) - 1):
                total -= logp[b, start + t, d[t + 1]].item()
                count += 1
            start += len(d)
    print("scored positions:", count, "expected per document")
    print("loss:", loss.item(), " per-document reference:", total / count)
