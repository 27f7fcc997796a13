import torch


def token_counts(generated, vocab_size):
    # generated: [B, T] token ids produced so far
    # returns:   [B, V] how often each token occurs per row
    counts = torch.zeros(generated.size(0), vocab_size, dtype=torch.long)
    ones = generated.new_ones(generated.shape)  # [B, T]
    counts.scatter_add_(1, generated, ones)
    return counts


def apply_penalties(logits, generated, presence=0.5, frequency=0.2):
    # logits: [B, V]
    counts = token_counts(generated, logits.size(-1))
    return logits - frequency * counts - presence * (counts > 0).float()


def sample_step(logits, generated):
    adjusted = apply_penalties(logits, generated)
    return adjusted.argmax(-1, keepdim=True)  # [B, 1]


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, vocab = 3, 12
    generated = torch.randint(0, vocab, (batch, 6))
    for _ in range(4):
        logits = torch.randn(batch, vocab)
        out = apply_penalties(logits, generated)
        for b in range(batch):
            row = generated[b].tolist()
            for v in range(vocab):
                c = row.count(v)
                ref = logits[b, v].item() - 0.2 * c - (0.5 if c > 0 else 0.0)
                assert abs(out[b, v].item() - ref) < 1e-5
        generated = torch.cat([generated, sample_step(logits, generated)], dim=1)
    print("ok")
