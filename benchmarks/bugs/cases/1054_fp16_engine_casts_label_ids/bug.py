import torch
from jaxtyping import Float, Int
from torch import Tensor


def prepare_inputs(batch: dict, dtype: torch.dtype) -> dict:
    """Move a batch onto the engine's compute dtype (fp16 mixed precision)."""
    return {k: v.to(dtype) for k, v in batch.items()}


def sequence_logps(
    logits: Float[Tensor, "batch seq vocab"],
    labels: Int[Tensor, "batch seq"],
    mask: Float[Tensor, "batch seq"],
) -> Float[Tensor, "batch"]:
    logp = logits.float().log_softmax(-1)
    token_logp = logp.gather(-1, labels.long().unsqueeze(-1)).squeeze(-1)
    return (token_logp * mask).sum(-1)


def policy_step(policy_logits: Float[Tensor, "batch seq vocab"], batch: dict, dtype=torch.float16):
    inputs = prepare_inputs(batch, dtype)
    return sequence_logps(policy_logits, inputs["labels"], inputs["loss_mask"])


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 32000
    logits = torch.randn(2, 6, vocab)
    batch = {
        "labels": torch.randint(0, vocab, (2, 6)),
        "loss_mask": torch.ones(2, 6),
    }
    print("sequence log-probs:", policy_step(logits, batch).tolist())
    exact = logits.log_softmax(-1).gather(-1, batch["labels"].unsqueeze(-1)).squeeze(-1).sum(-1)
    print("expected:          ", exact.tolist())
