"""Batched top-k filtering for a sampler that serves mixed requests.

Requests without top_k leave the field out of their sampling params.
"""
import torch


def make_top_k(requests, vocab_size):
    return torch.tensor([req.get("top_k", 0) for req in requests], dtype=torch.long)


def apply_top_k(logits, k):
    logits_sort, logits_idx = logits.sort(dim=-1, descending=False)
    kth_pos = logits_sort.size(1) - k
    kth_value = logits_sort.gather(1, kth_pos.unsqueeze(dim=1))
    logits_sort = logits_sort.masked_fill(logits_sort < kth_value, float("-inf"))
    return logits.scatter(dim=-1, index=logits_idx, src=logits_sort)


def sample(logits, requests, generator):
    k = make_top_k(requests, logits.size(-1))
    filtered = apply_top_k(logits, k)
    probs = torch.softmax(filtered, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1), filtered


if __name__ == "__main__":
    requests = [{"temperature": 0.0}, {"temperature": 1.0, "top_k": 4, "top_p": 0.95}]
    logits = torch.arange(256, dtype=torch.float32).reshape(2, 128)
    generator = torch.Generator().manual_seed(0)
    tokens, filtered = sample(logits, requests, generator)
    print("sampled:", tokens.tolist())
