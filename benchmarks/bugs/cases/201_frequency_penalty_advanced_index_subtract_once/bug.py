import torch


class PenaltyLogitsProcessor:
    """OpenAI-style penalties: a token loses `frequency` per occurrence and `presence` once."""

    def __init__(self, frequency_penalty, presence_penalty, pad_token_id):
        self.frequency_penalty = frequency_penalty
        self.presence_penalty = presence_penalty
        self.pad_token_id = pad_token_id

    def __call__(self, generated, logits):
        # generated: [B, T] completion tokens so far (right-padded), logits: [B, V]
        rows = torch.arange(logits.size(0)).unsqueeze(1).expand_as(generated)  # [B, T]
        real = (generated != self.pad_token_id).to(logits.dtype)  # [B, T]
        logits = logits.clone()
        logits[rows, generated] -= self.frequency_penalty * real
        seen = torch.zeros_like(logits, dtype=torch.bool)  # [B, V]
        seen[rows, generated] = real.bool()
        return logits - self.presence_penalty * seen.to(logits.dtype)


def greedy_step(logits_fn, processor, generated):
    # generated: [B, T]
    logits = processor(generated, logits_fn(generated))  # [B, V]
    return logits.argmax(-1), logits


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab, pad = 10, 0
    base = torch.randn(2, vocab)
    generated = torch.tensor([[4, 7, 4, 4, 2], [5, 5, 3, 0, 0]])  # [B, T]
    processor = PenaltyLogitsProcessor(frequency_penalty=0.5, presence_penalty=0.25, pad_token_id=pad)
    _, penalized = greedy_step(lambda g: base, processor, generated)
    ref = base.clone()
    for b in range(2):
        toks = [t for t in generated[b].tolist() if t != pad]
        for t in set(toks):
            ref[b, t] -= 0.5 * toks.count(t) + 0.25
    print("token 4 of row 0 (seen 3 times):", round(penalized[0, 4].item(), 4), "expected:", round(ref[0, 4].item(), 4))
    print("max |diff|:", round((penalized - ref).abs().max().item(), 4))
