"""Per-token log-probabilities, done right, three ways."""
import torch
from jaxtyping import Float, Int
from torch import Tensor


def per_token_logps(logits: Float[Tensor, "B L V"], input_ids: Int[Tensor, "B L"]) -> Float[Tensor, "B L"]:
    log_probs = logits.log_softmax(dim=-1)
    return log_probs.gather(-1, input_ids.unsqueeze(-1)).squeeze(-1)


def per_token_logps_rowwise(logits, input_ids):
    """Row by row, to save memory on long sequences.

    Args:
        logits (`torch.FloatTensor` of shape `(batch_size, seq_len, vocab_size)`): model logits.
        input_ids (`torch.LongTensor` of shape `(batch_size, seq_len)`): sampled tokens.
    """
    per_token = []
    for logits_row, ids_row in zip(logits, input_ids):
        row_log_probs = logits_row.log_softmax(dim=-1)  # [seq_len, vocab_size]
        per_token.append(torch.gather(row_log_probs, dim=1, index=ids_row.unsqueeze(1)).squeeze(1))
    return torch.stack(per_token)


def shifted_logps(logits, input_ids):
    logits = logits[:, :-1, :]  # [B, L-1, V]
    targets = input_ids[:, 1:]  # [B, L-1]
    return torch.take_along_dim(logits.log_softmax(-1), targets.unsqueeze(-1), dim=-1).squeeze(-1)
