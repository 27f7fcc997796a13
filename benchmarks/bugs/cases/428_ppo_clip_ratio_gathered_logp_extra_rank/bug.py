from dataclasses import dataclass

import torch
import torch.nn as nn
from jaxtyping import Float, Int


@dataclass
class RolloutBatch:
    obs: Float[torch.Tensor, "batch obs_dim"]
    actions: Int[torch.Tensor, "batch"]
    old_logp: Float[torch.Tensor, "batch"]
    advantages: Float[torch.Tensor, "batch"]


def ppo_policy_loss(
    logits: Float[torch.Tensor, "batch n_actions"],
    batch: RolloutBatch,
    clip_eps: float = 0.2,
    ent_coef: float = 0.01,
) -> Float[torch.Tensor, ""]:
    log_probs = logits.log_softmax(dim=-1)
    logp = log_probs.gather(-1, batch.actions.unsqueeze(-1))
    ratio = torch.exp(logp - batch.old_logp)
    surr1 = ratio * batch.advantages
    surr2 = ratio.clamp(1.0 - clip_eps, 1.0 + clip_eps) * batch.advantages
    entropy = -(log_probs.exp() * log_probs).sum(dim=-1)
    return -(torch.min(surr1, surr2).mean() + ent_coef * entropy.mean())


def collect(policy: nn.Module, n: int, obs_dim: int) -> RolloutBatch:
    obs = torch.randn(n, obs_dim)
    with torch.no_grad():
        dist = torch.distributions.Categorical(logits=policy(obs))
        actions = dist.sample()
        old_logp = dist.log_prob(actions) + 0.05 * torch.randn(n)
    advantages = torch.randn(n)
    return RolloutBatch(obs, actions, old_logp, (advantages - advantages.mean()) / advantages.std())


if __name__ == "__main__":
    torch.manual_seed(0)
    policy = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 6))
    batch = collect(policy, 64, 8)
    loss = ppo_policy_loss(policy(batch.obs), batch)
    per_sample = []
    lp = policy(batch.obs).log_softmax(-1)
    for i in range(64):
        r = torch.exp(lp[i, batch.actions[i]] - batch.old_logp[i])
        a = batch.advantages[i]
        per_sample.append(torch.min(r * a, r.clamp(0.8, 1.2) * a))
    ent = -(lp.exp() * lp).sum(-1).mean()
    ref = -(torch.stack(per_sample).mean() + 0.01 * ent)
    print("ppo loss:", round(loss.item(), 4), "per-sample reference:", round(ref.item(), 4))
