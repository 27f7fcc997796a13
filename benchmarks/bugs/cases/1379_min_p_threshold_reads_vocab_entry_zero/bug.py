import torch


def top_k_filter(logits, k):
    kth = torch.topk(logits, k, dim=-1).values[..., -1:]
    return logits.masked_fill(logits < kth, float("-inf"))


def sample(logits, top_k=1, min_p=0.0, temperature=1.0, generator=None):
    if top_k == 1:
        return logits.argmax(dim=-1)
    if top_k > 0:
        logits = top_k_filter(logits, top_k)
    if min_p > 0.0:
        probs = torch.softmax(logits, dim=-1)
        max_prob = probs[..., 0].item()
        probs = probs.masked_fill(probs < max_prob * min_p, 0.0)
        logits = probs.log()
    if temperature != 1.0:
        logits = logits / temperature
    return torch.multinomial(torch.softmax(logits, dim=-1), 1, generator=generator).squeeze(-1)


def decode(step_fn, prompt, cfg, gen):
    seqs = prompt
    for _ in range(cfg["max_new_tokens"]):
        logits = step_fn(seqs)
        nxt = sample(logits, top_k=cfg["top_k"], min_p=cfg["min_p"], temperature=cfg["temperature"], generator=gen)
        seqs = torch.cat([seqs, nxt[:, None]], dim=1)
    return seqs


if __name__ == "__main__":
    torch.manual_seed(0)
    table = torch.randn(50, 50) * 3
    step_fn = lambda seqs: table[seqs[:, -1]]
    cfg = {"max_new_tokens": 6, "top_k": 0, "min_p": 0.1, "temperature": 0.8}
    prompt = torch.tensor([[3, 7], [11, 2]])
    out = decode(step_fn, prompt, cfg, torch.Generator().manual_seed(1))
    print(out)
