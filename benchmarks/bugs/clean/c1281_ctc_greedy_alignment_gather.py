import torch
import torch.nn as nn


class FrameClassifier(nn.Module):
    def __init__(self, n_mels: int, vocab: int):
        super().__init__()
        self.proj = nn.Linear(n_mels, vocab)

    def forward(self, feats):
        # feats: (B, T, n_mels) -> log-probs (B, T, V)
        return self.proj(feats).log_softmax(dim=-1)


def greedy_path_scores(log_probs, lengths):
    """Per-frame best token and the summed log-prob of the greedy path.

    Args:
        log_probs: (B, T, V) frame log-probabilities.
        lengths: (B,) number of valid frames per utterance.

    Returns:
        tokens (B, T) argmax ids, path_logp (B,) sum over valid frames.
    """
    tokens = log_probs.argmax(dim=-1)                                  # (B, T)
    frame_logp = log_probs.gather(-1, tokens.unsqueeze(-1)).squeeze(-1)  # (B, T)
    t = torch.arange(log_probs.shape[1]).unsqueeze(0)                  # (1, T)
    valid = t < lengths.unsqueeze(1)                                   # (B, T)
    return tokens, (frame_logp * valid).sum(dim=1)


def forced_token_logp(log_probs, targets):
    """Log-prob of a given per-frame alignment. targets: (B, T) ids."""
    return torch.take_along_dim(log_probs, targets.unsqueeze(-1), dim=-1).squeeze(-1)


def token_histogram(tokens, lengths, vocab):
    """Counts of each emitted token over valid frames, per utterance: (B, V)."""
    b, t = tokens.shape
    valid = (torch.arange(t).unsqueeze(0) < lengths.unsqueeze(1)).float()
    return torch.zeros(b, vocab).scatter_add_(1, tokens, valid)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = FrameClassifier(n_mels=8, vocab=6)
    feats = torch.randn(3, 10, 8)
    lengths = torch.tensor([10, 7, 4])
    with torch.no_grad():
        lp = model(feats)
    tokens, path = greedy_path_scores(lp, lengths)
    align = torch.randint(0, 6, (3, 10))
    forced = forced_token_logp(lp, align)
    hist = token_histogram(tokens, lengths, vocab=6)

    for b in range(3):
        total = 0.0
        counts = [0.0] * 6
        for t in range(int(lengths[b])):
            best = max(range(6), key=lambda v: float(lp[b, t, v]))
            assert int(tokens[b, t]) == best
            total += float(lp[b, t, best])
            counts[best] += 1.0
        assert abs(float(path[b]) - total) < 1e-5
        assert hist[b].tolist() == counts
        for t in range(10):
            assert float(forced[b, t]) == float(lp[b, t, int(align[b, t])])
    print("ok")
