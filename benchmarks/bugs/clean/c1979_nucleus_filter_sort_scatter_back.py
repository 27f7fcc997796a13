import torch
import torch.nn.functional as F


def top_p_filter(logits, top_p = 0.9, min_tokens_to_keep = 1):
    """Nucleus filtering of a batch of next-token logits.

    logits: (batch, vocab)
    returns: (batch, vocab) logits with the tokens outside each row's nucleus set to -inf
    """
    sorted_logits, sorted_indices = torch.sort(logits, dim = -1, descending = True)   # (batch, vocab)
    cum_probs = sorted_logits.softmax(dim = -1).cumsum(dim = -1)                       # (batch, vocab)

    # remove a token once the mass before it already exceeds top_p
    sorted_to_remove = cum_probs > top_p
    sorted_to_remove[..., 1:] = sorted_to_remove[..., :-1].clone()
    sorted_to_remove[..., :min_tokens_to_keep] = False

    # back to vocabulary order, row by row
    to_remove = sorted_to_remove.scatter(-1, sorted_indices, sorted_to_remove)
    return logits.masked_fill(to_remove, float('-inf'))


def sample_next_tokens(logits, top_p = 0.9, temperature = 1.):
    """logits: (batch, vocab) -> token ids (batch,) and their log-probabilities (batch,)."""
    filtered = top_p_filter(logits / temperature, top_p = top_p)
    log_probs = F.log_softmax(filtered, dim = -1)
    tokens = torch.multinomial(log_probs.exp(), 1)                    # (batch, 1)
    token_log_probs = log_probs.gather(-1, tokens).squeeze(-1)        # (batch,)
    return tokens.squeeze(-1), token_log_probs


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, vocab = 6, 50
    logits = torch.randn(batch, vocab) * torch.tensor([0.5, 1., 2., 3., 4., 6.])[:, None]

    filtered = top_p_filter(logits, top_p = 0.8)
    tokens, token_log_probs = sample_next_tokens(logits, top_p = 0.8)

    # reference: per row, keep the most likely tokens until the kept mass exceeds top_p
    for b in range(batch):
        row = logits[b].tolist()
        probs = torch.softmax(logits[b], dim = -1).tolist()
        order = sorted(range(vocab), key = lambda v: -row[v])
        kept, mass = set(), 0.0
        for v in order:
            if kept and mass > 0.8:
                break
            kept.add(v)
            mass += probs[v]
        for v in range(vocab):
            if v in kept:
                assert filtered[b, v] == logits[b, v], (b, v)
            else:
                assert filtered[b, v] == float('-inf'), (b, v)
        assert tokens[b].item() in kept
        z = sum(probs[v] for v in kept)
        assert abs(token_log_probs[b].item() - (torch.log(torch.tensor(probs[tokens[b].item()] / z)).item())) < 1e-4
    print("ok")
