from typing import Optional

import torch
import torch.nn.functional as F
from jaxtyping import Bool, Float, Int
from torch import Tensor


def log_probs_from_logits(logits: Float[Tensor, "batch seq vocab"], labels: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq"]:
    log_probs = F.log_softmax(logits, dim=-1)
    return log_probs.gather(dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)


def compute_approx_kl(
    log_probs: Float[Tensor, "batch seq"],
    log_probs_base: Float[Tensor, "batch seq"],
    action_mask: Optional[Bool[Tensor, "batch seq"]] = None,
) -> Float[Tensor, "batch seq"]:
    log_ratio = log_probs - log_probs_base
    if action_mask is not None:
        log_ratio = log_ratio * action_mask
    return log_ratio


def compute_reward(
    r: Float[Tensor, " batch"],
    kl_coef: float,
    kl: Float[Tensor, "batch seq"],
    action_mask: Bool[Tensor, "batch seq"],
) -> Float[Tensor, "batch seq"]:
    kl_reward = -kl_coef * kl
    eos_indices = action_mask.size(1) - 1 - action_mask.long().fliplr().argmax(dim=1, keepdim=True)
    last_reward = torch.zeros_like(kl).scatter_(dim=1, index=eos_indices, src=r.unsqueeze(1).to(kl.dtype))
    return last_reward + kl_reward


def masked_mean(tensor: Tensor, mask: Optional[Tensor], dim: int = None) -> Tensor:
    if mask is None:
        return tensor.mean(dim=dim)
    return (tensor * mask).sum(dim=dim) / mask.sum(dim=dim)


def masked_normalize(tensor: Float[Tensor, "batch seq"], mask: Bool[Tensor, "batch seq"], dim: int = 1, eps: float = 1e-8) -> Float[Tensor, "batch seq"]:
    tensor = tensor * mask
    mean = masked_mean(tensor, mask, dim=dim)
    mean_centered = tensor - mean
    var = masked_mean(mean_centered**2, mask, dim=dim)
    return mean_centered * var.clamp(min=eps).rsqrt()


def reinforce_advantages(
    rewards: Float[Tensor, "batch seq"], action_mask: Bool[Tensor, "batch seq"], gamma: float = 1.0
) -> Float[Tensor, "batch seq"]:
    returns = torch.zeros_like(rewards)
    running = torch.zeros(rewards.size(0))
    for t in reversed(range(rewards.size(1))):
        running = rewards[:, t] + gamma * running
        returns[:, t] = running
    return masked_normalize(returns, action_mask, dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, num_actions, vocab = 4, 7, 50
    actions = torch.randint(3, vocab, (batch, num_actions))
    policy_logits = torch.randn(batch, num_actions, vocab)
    ref_logits = policy_logits + 0.1 * torch.randn(batch, num_actions, vocab)
    lengths = torch.tensor([7, 5, 6, 3])
    action_mask = torch.arange(num_actions)[None, :] < lengths[:, None]

    log_probs = log_probs_from_logits(policy_logits, actions)
    base_log_probs = log_probs_from_logits(ref_logits, actions)
    kl = compute_approx_kl(log_probs, base_log_probs, action_mask)
    rewards = compute_reward(torch.tensor([1.0, -0.5, 0.25, 2.0]), 0.05, kl, action_mask)
    advantages = reinforce_advantages(rewards, action_mask)
    print("advantages", advantages)
