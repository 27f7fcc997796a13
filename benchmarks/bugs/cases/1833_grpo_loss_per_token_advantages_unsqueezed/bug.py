import torch
from jaxtyping import Float, Int
from torch import Tensor


def selective_log_softmax(
    logits: Float[Tensor, "batch seq vocab"], index: Int[Tensor, "batch seq"]
) -> Float[Tensor, "batch seq"]:
    selected_logits = torch.gather(logits, dim=-1, index=index.unsqueeze(-1)).squeeze(-1)
    return selected_logits - torch.logsumexp(logits, dim=-1)


def grpo_loss(
    logits: Float[Tensor, "batch seq vocab"],
    input_ids: Int[Tensor, "batch seq"],
    advantages: Float[Tensor, "batch seq"],
    original_logprobs: Float[Tensor, "batch seq"],
    loss_mask: Int[Tensor, "batch seq"],
    epsilon: float,
) -> Float[Tensor, ""]:
    per_token_logps = selective_log_softmax(logits, input_ids)
    ratio = torch.exp(per_token_logps - original_logprobs)
    clipped_ratio = torch.clamp(ratio, 1 - epsilon, 1 + epsilon)
    unclipped = ratio * advantages.unsqueeze(1)
    clipped = clipped_ratio * advantages.unsqueeze(1)
    per_token_loss = -torch.min(unclipped, clipped)
    return (per_token_loss * loss_mask).sum() / loss_mask.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, seq, vocab = 4, 6, 11
    logits = torch.randn(batch, seq, vocab)
    input_ids = torch.randint(0, vocab, (batch, seq))
    rewards = torch.randn(batch)
    advantages = ((rewards - rewards.mean()) / rewards.std())[:, None].expand(batch, seq).contiguous()
    original_logprobs = torch.log_softmax(logits + 0.3 * torch.randn_like(logits), -1)
    original_logprobs = original_logprobs.gather(-1, input_ids.unsqueeze(-1)).squeeze(-1)
    loss_mask = (torch.rand(batch, seq) > 0.2).long()

    loss = grpo_loss(logits, input_ids, advantages, original_logprobs, loss_mask, epsilon=0.2)

    total, count = 0.0, 0
    for b in range(batch):
        logp = torch.log_softmax(logits[b], -1)
        for t in range(seq):
            if loss_mask[b, t] == 0:
                continue
            ratio = torch.exp(logp[t, input_ids[b, t]] - original_logprobs[b, t])
            clipped = ratio.clamp(0.8, 1.2)
            total += -min(ratio * advantages[b, t], clipped * advantages[b, t]).item()
            count += 1
    ref = total / count
    print("loss:", loss.item(), "reference:", ref)
