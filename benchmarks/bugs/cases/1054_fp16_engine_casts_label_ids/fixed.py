import torch
from jaxtyping import Float, Int
from torch import Tensor


def prepare_inputs(batch: dict, dtype: torch.dtype) -> dict:
    """Move floating-point tensors onto the engine's compute dtype; ids stay int64."""
    return {k: (v.to(dtype) if v.is_floating_point() else v) for k, v in batch.items()}


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
    got = policy_step(logits, batch)
    logp = logits.log_softmax(-1)
    for b in range(2):
        ref = sum(logp[b, t, int(batch["labels"][b, t])].item() for t in range(6))
        assert abs(got[b].item() - ref) < 1e-3, (got[b].item(), ref)
    print("ok")
