from typing import Optional

import torch
import torch.nn as nn


def sample_top_p(logits, top_p):
    sorted_logits, sorted_indices = torch.sort(logits, descending=False)
    cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    sorted_indices_to_remove = cumulative_probs <= (1 - top_p)
    sorted_indices_to_remove[..., -1:] = 0
    indices_to_remove = sorted_indices_to_remove.scatter(0, sorted_indices, sorted_indices_to_remove)
    return logits.masked_fill(indices_to_remove, float("-inf"))


def sample(logits, temperature=1.0, top_k: Optional[int] = None, top_p=1.0, generator=None):
    if not 0.0 <= top_p <= 1.0:
        raise ValueError(f"top_p must be in [0, 1], got {top_p}")
    if top_k is not None and top_k < 1:
        raise ValueError(f"top_k must be a positive integer, got {top_k}")
    logits = logits[0, -1]
    if top_k is not None:
        v, i = torch.topk(logits, min(top_k, logits.size(-1)))
        logits = torch.full_like(logits, float("-inf")).scatter_(-1, i, v)
    if temperature > 0.0 or top_p > 0.0:
        if temperature > 0.0:
            logits = logits / temperature
        if top_p < 1.0:
            logits = sample_top_p(logits, top_p)
        if temperature > 0.0:
            probs = logits.softmax(dim=-1)
            return torch.multinomial(probs, num_samples=1, generator=generator)
    return torch.argmax(logits, dim=-1, keepdim=True)


class TinyGPT(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, idx):
        h, _ = self.rnn(self.wte(idx))
        return self.lm_head(h)


@torch.inference_mode()
def generate(model, prompt, max_new_tokens, **sampling):
    tokens = prompt.clone()
    for _ in range(max_new_tokens):
        logits = model(tokens[None])
        nxt = sample(logits, **sampling)
        tokens = torch.cat([tokens, nxt])
    return tokens


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyGPT(vocab=32, dim=16)
    request = {"max_new_tokens": 6, "temperature": 0.0, "top_k": 0}
    prompt = torch.tensor([5, 9, 14])
    try:
        generate(model, prompt, request["max_new_tokens"], temperature=request["temperature"], top_k=request["top_k"])
        raise AssertionError("top_k=0 must be rejected")
    except ValueError:
        pass
    out = generate(model, prompt, request["max_new_tokens"], temperature=0.0, top_k=4)
    ref = prompt.tolist()
    for _ in range(request["max_new_tokens"]):
        row = model(torch.tensor(ref)[None])[0, -1].tolist()
        ref.append(max(range(len(row)), key=lambda j: row[j]))
    assert out.tolist() == ref
    print("ok")
