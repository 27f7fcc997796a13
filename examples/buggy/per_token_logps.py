"""Per-token log-probabilities of the sampled tokens (policy-gradient fine-tuning of a language model)."""
import torch
from jaxtyping import Float, Int
from torch import Tensor


def per_token_logps(logits: Float[Tensor, "B L V"], input_ids: Int[Tensor, "B L"]) -> Float[Tensor, "B L"]:
    log_probs = logits.log_softmax(dim=-1)
    # Bug: the ids index the vocabulary (last) dim, not the sequence dim.
    return log_probs.gather(-2, input_ids.unsqueeze(-1)).squeeze(-1)
