"""Logits processors for sampling-based generation (repetition penalty, banned tokens, top-k, top-p)."""

import math

import torch


class RepetitionPenaltyLogitsProcessor:
    """
    Penalizes tokens that already occur in the generated sequence.

    Args:
        penalty (`float`):
            Values above 1.0 discourage repetition: positive logits are divided by it, negative ones multiplied.
    """

    def __init__(self, penalty: float):
        if penalty <= 0:
            raise ValueError(f"`penalty` has to be a strictly positive float, but is {penalty}")
        self.penalty = penalty

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`): tokens generated so far.
            scores (`torch.FloatTensor` of shape `(batch_size, vocab_size)`): next-token logits.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, vocab_size)`: the processed logits.
        """
        score = torch.gather(scores, 1, input_ids)
        score = torch.where(score < 0, score * self.penalty, score / self.penalty)
        return scores.scatter(1, input_ids, score)


class BannedTokensLogitsProcessor:
    """
    Sets the logits of a fixed list of token ids to `-inf`.

    Args:
        banned_ids (`list[int]`): vocabulary ids that must never be sampled.
    """

    def __init__(self, banned_ids):
        self.banned_ids = torch.tensor(sorted(set(banned_ids)), dtype=torch.long)

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        return scores.index_fill(1, self.banned_ids.to(scores.device), -float("inf"))


class TopKLogitsWarper:
    """
    Keeps the `top_k` highest logits of every row.

    Args:
        top_k (`int`): number of candidates kept per row.
    """

    def __init__(self, top_k: int, filter_value: float = -float("inf")):
        self.top_k = top_k
        self.filter_value = filter_value

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        top_k = min(self.top_k, scores.size(-1))
        kth_value = torch.topk(scores, top_k, dim=-1).values[..., -1, None]  # (batch_size, 1)
        return scores.masked_fill(scores < kth_value, self.filter_value)


class TopPLogitsWarper:
    """
    Nucleus filtering: keeps the smallest set of tokens whose probability mass reaches `top_p`.

    Args:
        top_p (`float`): cumulative probability threshold in (0, 1].
        min_tokens_to_keep (`int`): lower bound on the number of candidates per row.
    """

    def __init__(self, top_p: float, min_tokens_to_keep: int = 1, filter_value: float = -float("inf")):
        self.top_p = top_p
        self.min_tokens_to_keep = min_tokens_to_keep
        self.filter_value = filter_value

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        sorted_logits, sorted_indices = torch.sort(scores, descending=False, dim=-1)
        cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
        # ascending order: drop the low-probability head whose mass stays below 1 - top_p
        sorted_indices_to_remove = cumulative_probs <= (1 - self.top_p)
        sorted_indices_to_remove[..., -self.min_tokens_to_keep :] = False
        # undo the sort: position sorted_indices[b, j] gets the flag computed for rank j
        indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
        return scores.masked_fill(indices_to_remove, self.filter_value)


class LogitsProcessorList(list):
    def __call__(self, input_ids, scores):
        for processor in self:
            scores = processor(input_ids, scores)
        return scores


def sample_next_tokens(input_ids, logits, processors, generator=None):
    """
    Args:
        input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`)
        logits (`torch.FloatTensor` of shape `(batch_size, vocab_size)`)

    Returns:
        next_tokens (`torch.LongTensor` of shape `(batch_size,)`) and their log-probabilities under the
        processed distribution (`torch.FloatTensor` of shape `(batch_size,)`).
    """
    scores = processors(input_ids, logits)
    logprobs = torch.log_softmax(scores, dim=-1)
    next_tokens = torch.multinomial(logprobs.exp(), num_samples=1, generator=generator).squeeze(1)
    chosen_logprobs = logprobs.gather(-1, next_tokens.unsqueeze(-1)).squeeze(-1)
    return next_tokens, chosen_logprobs


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    batch_size, vocab_size = 3, 20
    input_ids = torch.tensor([[4, 7, 4, 1], [0, 0, 19, 3], [5, 6, 7, 8]])
    logits = torch.randn(batch_size, vocab_size, generator=g) * 2

    # repetition penalty against a loop
    penalized = RepetitionPenaltyLogitsProcessor(1.3)(input_ids, logits)
    expected = logits.clone()
    for b in range(batch_size):
        for tok in set(input_ids[b].tolist()):
            v = logits[b, tok].item()
            expected[b, tok] = v * 1.3 if v < 0 else v / 1.3
    assert torch.allclose(penalized, expected)

    # banned tokens
    banned = BannedTokensLogitsProcessor([2, 11])(input_ids, logits)
    assert torch.isinf(banned[:, [2, 11]]).all() and torch.equal(banned[:, 0], logits[:, 0])

    # top-k against a loop
    topk = TopKLogitsWarper(5)(input_ids, logits)
    for b in range(batch_size):
        ranked = sorted(range(vocab_size), key=lambda j: -logits[b, j].item())
        kept = {j for j in range(vocab_size) if math.isfinite(topk[b, j].item())}
        assert kept == set(ranked[:5])

    # top-p against a loop
    top_p = 0.8
    nucleus = TopPLogitsWarper(top_p)(input_ids, logits)
    probs = logits.softmax(dim=-1)
    for b in range(batch_size):
        ranked = sorted(range(vocab_size), key=lambda j: probs[b, j].item())
        mass, removed = 0.0, set()
        for j in ranked[:-1]:
            mass += probs[b, j].item()
            if mass <= 1 - top_p:
                removed.add(j)
        kept = {j for j in range(vocab_size) if math.isfinite(nucleus[b, j].item())}
        assert kept == set(range(vocab_size)) - removed

    processors = LogitsProcessorList(
        [RepetitionPenaltyLogitsProcessor(1.3), BannedTokensLogitsProcessor([2, 11]), TopKLogitsWarper(8), TopPLogitsWarper(0.9)]
    )
    tokens, chosen = sample_next_tokens(input_ids, logits, processors, generator=g)
    final = torch.log_softmax(processors(input_ids, logits), dim=-1)
    for b in range(batch_size):
        assert tokens[b].item() not in (2, 11)
        assert abs(chosen[b].item() - final[b, tokens[b]].item()) < 1e-6
    print("ok")
