import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class DiscreteActorCritic(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int, hidden: int = 64):
        super().__init__()
        self.policy = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))
        self.q = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))


def crr_advantage(
    model: DiscreteActorCritic, obs: Float[Tensor, "batch obs"], actions: Int[Tensor, " batch"]
) -> Float[Tensor, " batch"]:
    q_all = model.q(obs)
    pi = model.policy(obs).softmax(dim=-1)
    q_taken = q_all.gather(1, actions.unsqueeze(1)).squeeze(1)
    return q_taken - (pi * q_all).sum(dim=-1)


def crr_policy_loss(
    model: DiscreteActorCritic,
    obs: Float[Tensor, "batch obs"],
    actions: Int[Tensor, " batch"],
    beta: float = 1.0,
    max_weight: float = 20.0,
) -> Float[Tensor, ""]:
    with torch.no_grad():
        coeff = torch.exp(crr_advantage(model, obs, actions) / beta).clamp(max=max_weight)
    log_probs = model.policy(obs).log_softmax(dim=-1)
    logp_action = log_probs.gather(1, actions.unsqueeze(1)).squeeze(1)
    return -(logp_action * coeff).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DiscreteActorCritic(obs_dim=8, n_actions=5)
    obs = torch.randn(128, 8)
    actions = torch.randint(0, 5, (128,))
    loss = crr_policy_loss(model, obs, actions)
    with torch.no_grad():
        coeff = torch.exp(crr_advantage(model, obs, actions)).clamp(max=20.0)
    logp = model.policy(obs).log_softmax(-1)[torch.arange(128), actions]
    ref = -(logp * coeff).mean()
    g_loss = torch.autograd.grad(loss, list(model.policy.parameters()))
    g_ref = torch.autograd.grad(ref, list(model.policy.parameters()))
    cos = torch.cosine_similarity(torch.cat([g.flatten() for g in g_loss]), torch.cat([g.flatten() for g in g_ref]), dim=0)
    assert torch.allclose(loss, ref, atol=1e-6) and cos > 0.9999
    print("ok")
