import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class DiscretePolicy(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs: Float[Tensor, "batch obs"]) -> tuple[Float[Tensor, "batch actions"], Int[Tensor, " batch"]]:
        action_probabilities = self.net(obs).softmax(dim=-1)
        max_probability_action = torch.argmax(action_probabilities)
        return action_probabilities, max_probability_action.unsqueeze(0)


class TwinQ(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int):
        super().__init__()
        self.q1 = nn.Linear(obs_dim, n_actions)
        self.q2 = nn.Linear(obs_dim, n_actions)

    def forward(self, obs: Float[Tensor, "batch obs"]) -> Float[Tensor, "batch actions"]:
        return torch.min(self.q1(obs), self.q2(obs))


def greedy_q_values(
    policy: DiscretePolicy, critic: TwinQ, obs: Float[Tensor, "batch obs"]
) -> Float[Tensor, " batch"]:
    """Q-value of the deterministic (greedy) action in every evaluation environment."""
    _, greedy = policy(obs)
    return critic(obs).gather(1, greedy.unsqueeze(1)).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    policy, critic = DiscretePolicy(obs_dim=6, n_actions=4), TwinQ(obs_dim=6, n_actions=4)
    obs = torch.randn(8, 6)
    with torch.no_grad():
        q = greedy_q_values(policy, critic, obs)
        ref = critic(obs)[torch.arange(8), policy.net(obs).argmax(-1)]
    print("greedy Q values match per-env argmax:", torch.allclose(q, ref))
