"""Nucleus sampling for a generation server that batches concurrent requests.

Each step samples one token per active request.
"""
import torch


def top_p_sampling(logits, top_p, temperature, generator):
    # logits: [B, V] (one row per active request)
    probs = torch.softmax(logits / temperature, dim=-1)  # [B, V]
    sorted_probs, sorted_indices = probs.sort(dim=-1)  # ascending, [B, V]
    cumulative = sorted_probs.cumsum(dim=-1)  # [B, V]
    kept = torch.where(cumulative > 1 - top_p, sorted_probs, torch.zeros_like(sorted_probs))  # [B, V]
    sorted_token = torch.multinomial(kept, 1, generator=generator).squeeze(-1)  # [B]
    return sorted_indices.gather(-1, sorted_token.unsqueeze(-1)).squeeze(-1)  # [B]


def generate_step(model_logits, generated, top_p, temperature, generator):
    # generated: [B, T] token ids so far
    next_token = top_p_sampling(model_logits, top_p, temperature, generator)  # [B]
    return torch.cat([generated, next_token.unsqueeze(-1)], dim=-1)  # [B, T + 1]


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 64
    generated = torch.tensor([[5, 9, 11], [7, 2, 30]])  # two concurrent requests, [2, 3]
    logits = torch.randn(2, vocab)  # [2, V]
    logits[0, 41] += 12.0
    logits[1, 57] += 12.0
    generator = torch.Generator().manual_seed(0)
    out = generate_step(logits, generated, top_p=0.05, temperature=0.7, generator=generator)
    print("next tokens:", out[:, -1].tolist())
    for b in range(2):
        row = logits[b].tolist()
        assert out[b, -1].item() == max(range(vocab), key=lambda v: row[v])
        assert out[b, :-1].tolist() == generated[b].tolist()
    print("ok")
