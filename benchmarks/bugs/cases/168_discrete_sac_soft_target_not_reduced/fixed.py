import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class Critic(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs: Float[Tensor, "batch obs"]) -> Float[Tensor, "batch actions"]:
        return self.net(obs)


class Actor(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs: Float[Tensor, "batch obs"]) -> tuple[Float[Tensor, "batch actions"], Float[Tensor, "batch actions"]]:
        logits = self.net(obs)
        return logits.softmax(-1), logits.log_softmax(-1)


def soft_target(
    actor: Actor, critic_1_t: Critic, critic_2_t: Critic,
    reward: Float[Tensor, "batch 1"], done: Float[Tensor, "batch 1"], next_obs: Float[Tensor, "batch obs"],
    gamma: float, alpha: float,
) -> Float[Tensor, "batch 1"]:
    with torch.no_grad():
        next_probs, next_logp = actor(next_obs)
        min_q = torch.min(critic_1_t(next_obs), critic_2_t(next_obs))
        next_v = (next_probs * (min_q - alpha * next_logp)).sum(dim=-1, keepdim=True)
        return reward + gamma * (1 - done) * next_v


def critic_loss(
    critic: Critic, obs: Float[Tensor, "batch obs"], action: Int[Tensor, "batch"], td_target: Float[Tensor, "batch 1"]
) -> Float[Tensor, ""]:
    q = critic(obs).gather(1, action.unsqueeze(-1))
    return F.mse_loss(q, td_target)


if __name__ == "__main__":
    torch.manual_seed(0)
    actor, critic, c1_t, c2_t = Actor(6, 4), Critic(6, 4), Critic(6, 4), Critic(6, 4)
    obs, next_obs = torch.randn(64, 6), torch.randn(64, 6)
    action = torch.randint(0, 4, (64,))
    reward, done = torch.randn(64, 1), torch.zeros(64, 1)
    td_target = soft_target(actor, c1_t, c2_t, reward, done, next_obs, gamma=0.99, alpha=0.2)
    loss = critic_loss(critic, obs, action, td_target)
    with torch.no_grad():
        p, lp = actor(next_obs)
        v = (p * (torch.min(c1_t(next_obs), c2_t(next_obs)) - 0.2 * lp)).sum(-1)
        ref_t = reward[:, 0] + 0.99 * v
        ref = ((critic(obs)[torch.arange(64), action] - ref_t) ** 2).mean()
    assert td_target.shape == (64, 1)
    assert torch.allclose(loss, ref, atol=1e-6)
    print("ok")
