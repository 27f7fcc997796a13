import copy

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class QNet(nn.Module):
    def __init__(self, obs_dim, num_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 16), nn.ReLU(), nn.Linear(16, num_actions))

    def forward(self, observation: Float[Tensor, "batch obs_dim"]) -> Float[Tensor, "batch num_actions"]:
        return self.body(observation)


class RainbowDQNAgent:
    def __init__(self, qnet, discount_rate=0.99, double=True):
        self._qnet = qnet
        self._target_qnet = copy.deepcopy(qnet)
        self._discount_rate = discount_rate
        self._double = double

    def preprocess_update_batch(self, batch):
        return (batch["observation"],), (batch["next_observation"],)

    def compute_targets(self, batch) -> tuple[Float[Tensor, "batch"], Float[Tensor, "batch"]]:
        qnet_inputs, target_qnet_inputs = self.preprocess_update_batch(batch)
        pred_qvals: Float[Tensor, "batch num_actions"] = self._qnet(*qnet_inputs)
        actions: Int[Tensor, "batch"] = batch["action"].long()
        pred_qvals = pred_qvals[torch.arange(pred_qvals.size(0)), actions]

        if self._double:
            next_action = self._qnet(*qnet_inputs)
        else:
            next_action = self._target_qnet(*target_qnet_inputs)
        _, next_action = torch.max(next_action, dim=1)
        next_qvals: Float[Tensor, "batch num_actions"] = self._target_qnet(*target_qnet_inputs)
        next_qvals = next_qvals[torch.arange(next_qvals.size(0)), next_action]

        q_targets = batch["reward"] + self._discount_rate * next_qvals * (1 - batch["done"])
        return pred_qvals, q_targets


if __name__ == "__main__":
    torch.manual_seed(0)
    qnet = QNet(obs_dim=4, num_actions=3)
    agent = RainbowDQNAgent(qnet)
    with torch.no_grad():
        for p in agent._target_qnet.parameters():
            p.add_(0.3 * torch.randn_like(p))
    batch = {
        "observation": torch.randn(8, 4),
        "next_observation": torch.randn(8, 4),
        "action": torch.randint(0, 3, (8,)),
        "reward": torch.randn(8),
        "done": torch.zeros(8),
    }
    with torch.no_grad():
        _, q_targets = agent.compute_targets(batch)
        greedy = agent._qnet(batch["next_observation"]).argmax(dim=1)
        target_q = agent._target_qnet(batch["next_observation"])
        double_q = target_q[torch.arange(8), greedy]
        expected = batch["reward"] + 0.99 * double_q
    print("max |q_target - double-DQN target|:", (q_targets - expected).abs().max().item())
