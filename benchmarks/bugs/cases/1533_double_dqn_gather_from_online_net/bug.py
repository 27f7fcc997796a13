import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class QNet(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int, hidden: int = 64):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, obs: Float[Tensor, "batch obs"]) -> Float[Tensor, "batch actions"]:
        return self.layers(obs)


@torch.no_grad()
def double_dqn_targets(
    online_net: QNet,
    eval_net: QNet,
    next_obs: Float[Tensor, "batch obs"],
    rewards: Float[Tensor, "batch"],
    dones: Float[Tensor, "batch"],
    gamma: float,
) -> Float[Tensor, "batch"]:
    # the online net picks the greedy next action, the slow eval net scores it
    online_next_q = online_net(next_obs)
    eval_next_q = eval_net(next_obs)
    max_next_q = online_next_q.gather(-1, eval_next_q.argmax(dim=-1, keepdim=True)).squeeze(-1)
    return rewards + gamma * (1.0 - dones) * max_next_q


def q_loss(
    online_net: QNet,
    obs: Float[Tensor, "batch obs"],
    actions: Int[Tensor, "batch"],
    targets: Float[Tensor, "batch"],
) -> Float[Tensor, ""]:
    act_q = online_net(obs).gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    return F.smooth_l1_loss(act_q, targets)


if __name__ == "__main__":
    torch.manual_seed(0)
    online = QNet(8, 4)
    eval_net = copy.deepcopy(online)
    with torch.no_grad():
        for p in eval_net.parameters():
            p.add_(0.3 * torch.randn_like(p))
    obs, next_obs = torch.randn(16, 8), torch.randn(16, 8)
    actions = torch.randint(0, 4, (16,))
    rewards = torch.randn(16)
    dones = (torch.rand(16) < 0.2).float()

    targets = double_dqn_targets(online, eval_net, next_obs, rewards, dones, gamma=0.99)
    loss = q_loss(online, obs, actions, targets)

    ref = []
    with torch.no_grad():
        q_on, q_ev = online(next_obs), eval_net(next_obs)
        for i in range(16):
            best = int(q_on[i].argmax())
            ref.append(rewards[i] + 0.99 * (1.0 - dones[i]) * q_ev[i, best])
    ref = torch.stack(ref)
    print("targets differing from the Double-DQN reference:", int((~torch.isclose(targets, ref)).sum()), "of 16")
    print("max |target - reference|:", (targets - ref).abs().max().item(), "loss:", loss.item())
