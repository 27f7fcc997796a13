from dataclasses import dataclass

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class QNetwork(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))

    def forward(self, obs: Float[Tensor, "batch obs"]) -> Float[Tensor, "batch actions"]:
        return self.net(obs)


@dataclass
class Batch:
    observations: Float[Tensor, "batch obs"]
    actions: Int[Tensor, "batch"]
    rewards: Float[Tensor, "batch"]
    next_observations: Float[Tensor, "batch obs"]
    dones: Float[Tensor, "batch"]


def double_dqn_td_target(
    online: QNetwork, target: QNetwork, batch: Batch, gamma: float
) -> Float[Tensor, "batch"]:
    with torch.no_grad():
        next_actions = online(batch.next_observations).argmax(dim=1)
        target_max = target(batch.next_observations).gather(1, next_actions.unsqueeze(1))
        return batch.rewards + gamma * target_max * (1.0 - batch.dones)


def td_loss(online: QNetwork, target: QNetwork, batch: Batch, gamma: float = 0.99) -> Float[Tensor, ""]:
    td_target = double_dqn_td_target(online, target, batch, gamma)
    q_sa = online(batch.observations).gather(1, batch.actions.unsqueeze(1)).squeeze(1)
    return ((q_sa - td_target) ** 2).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    online, target = QNetwork(4, 3), QNetwork(4, 3)
    B = 8
    batch = Batch(torch.randn(B, 4), torch.randint(0, 3, (B,)), torch.randn(B), torch.randn(B, 4),
                  (torch.rand(B) < 0.2).float())
    loss = td_loss(online, target, batch)
    td = double_dqn_td_target(online, target, batch, 0.99)
    with torch.no_grad():
        ref_terms = []
        for i in range(B):
            a_star = int(online(batch.next_observations[i:i + 1]).argmax())
            y = batch.rewards[i] + 0.99 * target(batch.next_observations[i:i + 1])[0, a_star] * (1 - batch.dones[i])
            q = online(batch.observations[i:i + 1])[0, batch.actions[i]]
            ref_terms.append((q - y) ** 2)
    print("td target shape:", tuple(td.shape), "loss:", loss.item(), "per-sample reference:", torch.stack(ref_terms).mean().item())
