import torch


class RepetitionPenaltyLogitsProcessor:
    r"""
    Penalizes tokens that already appear in the sequence (CTRL, https://arxiv.org/abs/1909.05858).

    Args:
        penalty (`float`):
            The parameter for repetition penalty. 1.0 means no penalty; values above 1.0 discourage
            repeated tokens.
    """

    def __init__(self, penalty: float):
        if penalty <= 0:
            raise ValueError(f"`penalty` has to be a strictly positive float, but is {penalty}")
        self.penalty = penalty

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                Tokens generated so far.
            scores (`torch.FloatTensor` of shape `(batch_size, vocab_size)`):
                Next-token logits.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, vocab_size)`: the processed scores.
        """
        score = torch.gather(scores, 1, input_ids)
        score = score / self.penalty
        return scores.scatter(1, input_ids, score)


def next_token_probs(logits, input_ids, penalty):
    processor = RepetitionPenaltyLogitsProcessor(penalty)
    return processor(input_ids, logits).softmax(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(2, 10) * 2
    input_ids = torch.tensor([[1, 4, 4, 7], [0, 2, 9, 9]])
    before = logits.softmax(-1)
    after = next_token_probs(logits, input_ids, penalty=1.5)
    for b in range(2):
        for tok in sorted(set(input_ids[b].tolist())):
            print(f"row {b} token {tok}: logit {logits[b, tok].item():+.3f}  "
                  f"p before {before[b, tok].item():.4f}  p after {after[b, tok].item():.4f}")
