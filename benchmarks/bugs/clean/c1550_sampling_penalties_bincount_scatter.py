"""Sampling-time penalties (repetition / frequency / presence) over padded output token ids.

Token ids of finished or shorter requests are padded with ``vocab_size``; counts are taken in
``vocab_size + 1`` bins so the padding lands in an extra bin that is dropped afterwards.
"""
from dataclasses import dataclass

import torch


@dataclass
class PenaltyConfig:
    repetition_penalty: float = 1.2
    frequency_penalty: float = 0.3
    presence_penalty: float = 0.5


def pad_token_ids(sequences, pad_id):
    """Right-pads a list of 1-D LongTensors.

    Args:
        sequences (`List[torch.LongTensor]`): one tensor of generated ids per request.
        pad_id (`int`): id used for padding (the vocabulary size).

    Returns:
        `torch.LongTensor` of shape `(num_requests, max_len)`.
    """
    max_len = max(max((s.numel() for s in sequences), default=0), 1)
    out = torch.full((len(sequences), max_len), pad_id, dtype=torch.long)
    for row, seq in enumerate(sequences):
        out[row, : seq.numel()] = seq
    return out


def token_bin_counts(token_ids, vocab_size):
    """Counts how often every vocabulary id occurs in each row.

    Args:
        token_ids (`torch.LongTensor` of shape `(num_requests, max_len)`): ids padded with `vocab_size`.
        vocab_size (`int`): number of real tokens.

    Returns:
        counts (`torch.LongTensor` of shape `(num_requests, vocab_size)`) and
        mask (`torch.BoolTensor` of the same shape), True where the count is positive.
    """
    counts = torch.zeros(token_ids.size(0), vocab_size + 1, dtype=torch.long)
    counts.scatter_add_(1, token_ids, torch.ones_like(token_ids))
    counts = counts[:, :vocab_size]
    return counts, counts > 0


def apply_penalties(logits, output_ids, cfg):
    """Applies the three penalties to next-token logits.

    Args:
        logits (`torch.FloatTensor` of shape `(num_requests, vocab_size)`): raw next-token logits.
        output_ids (`torch.LongTensor` of shape `(num_requests, max_len)`): generated ids, padded with `vocab_size`.
        cfg (`PenaltyConfig`): penalty strengths.

    Returns:
        `torch.FloatTensor` of shape `(num_requests, vocab_size)`.
    """
    vocab_size = logits.size(-1)
    counts, seen = token_bin_counts(output_ids, vocab_size)

    penalised = torch.where(logits > 0, logits / cfg.repetition_penalty, logits * cfg.repetition_penalty)
    logits = torch.where(seen, penalised, logits)

    logits = logits - cfg.frequency_penalty * counts.to(logits.dtype)
    logits = logits - cfg.presence_penalty * seen.to(logits.dtype)
    return logits


def top_k_mask(logits, k):
    """Keeps the `k` largest logits of each row, sets the others to -inf.

    Args:
        logits (`torch.FloatTensor` of shape `(num_requests, vocab_size)`).
        k (`int`): number of candidates kept.

    Returns:
        `torch.FloatTensor` of shape `(num_requests, vocab_size)`.
    """
    values, indices = logits.topk(k, dim=-1)
    return torch.full_like(logits, float("-inf")).scatter_(-1, indices, values)


def chosen_logprobs(logits, sampled):
    """Log-probability of the sampled token of every request.

    Args:
        logits (`torch.FloatTensor` of shape `(num_requests, vocab_size)`).
        sampled (`torch.LongTensor` of shape `(num_requests,)`).

    Returns:
        `torch.FloatTensor` of shape `(num_requests,)`.
    """
    logp = logits.log_softmax(dim=-1)
    return logp.gather(-1, sampled.unsqueeze(-1)).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_size = 12
    cfg = PenaltyConfig()
    outputs = [torch.tensor([3, 3, 7]), torch.tensor([], dtype=torch.long), torch.tensor([11, 0, 11, 11, 5])]
    output_ids = pad_token_ids(outputs, vocab_size)
    logits = torch.randn(3, vocab_size)

    new_logits = apply_penalties(logits, output_ids, cfg)
    kept = top_k_mask(new_logits, 4)
    sampled = torch.multinomial(kept.softmax(-1), 1).squeeze(-1)
    lp = chosen_logprobs(kept, sampled)

    for r, seq in enumerate(outputs):
        for v in range(vocab_size):
            c = sum(1 for t in seq.tolist() if t == v)
            x = float(logits[r, v])
            if c > 0:
                x = x / cfg.repetition_penalty if x > 0 else x * cfg.repetition_penalty
            x = x - cfg.frequency_penalty * c - cfg.presence_penalty * (1.0 if c > 0 else 0.0)
            assert abs(float(new_logits[r, v]) - x) < 1e-5
        top = sorted(range(vocab_size), key=lambda v: float(new_logits[r, v]), reverse=True)[:4]
        assert int(sampled[r]) in top
        norm = torch.logsumexp(torch.stack([new_logits[r, v] for v in top]), dim=0)
        assert abs(float(lp[r]) - float(new_logits[r, int(sampled[r])] - norm)) < 1e-5
    print("ok")
