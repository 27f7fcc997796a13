import torch

PAD_ID = 1_000_000_000  # marks unused history slots


def pad_histories(histories, width):
    out = torch.full((len(histories), width), PAD_ID, dtype=torch.long)
    lengths = torch.zeros(len(histories), dtype=torch.long)
    for i, h in enumerate(histories):
        h = h[-width:]
        out[i, : len(h)] = torch.tensor(h)
        lengths[i] = len(h)
    return out, lengths


class RecencyPenalty:
    def __init__(self, strength=1.5, decay=0.7):
        self.strength = strength
        self.decay = decay

    def __call__(self, logits, history, lengths):
        slots = torch.arange(history.shape[1])
        age = (lengths.unsqueeze(1) - 1 - slots).clamp(min=0).to(logits.dtype)
        valid = history != PAD_ID
        penalties = self.strength * self.decay ** age * valid.to(logits.dtype)
        return logits.scatter_add(-1, history.masked_fill(~valid, 0), -penalties)


def sample_step(logits, histories, penalty, width=6):
    history, lengths = pad_histories(histories, width)
    adjusted = penalty(logits, history, lengths)
    return adjusted.argmax(-1), adjusted


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(2, 64)
    histories = [[5, 17, 17, 3, 40, 9, 12], [8, 8, 21]]
    next_ids, adjusted = sample_step(logits, histories, RecencyPenalty())
    expected = logits.clone()
    for b, h in enumerate(histories):
        h = h[-6:]
        for pos, tok in enumerate(h):
            expected[b, tok] -= 1.5 * 0.7 ** (len(h) - 1 - pos)
    assert torch.allclose(adjusted, expected, atol=1e-6)
    assert next_ids.tolist() == expected.argmax(-1).tolist()
    print("ok")
