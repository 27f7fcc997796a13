import numpy as np
import torch
import torch.nn as nn


class ExperienceBuffer:
    def __init__(self, capacity, obs_dim):
        self.states = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int32)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.size = 0

    def append(self, state, action, reward):
        self.states[self.size] = state
        self.actions[self.size] = action
        self.rewards[self.size] = reward
        self.size += 1

    def sample(self, batch_size, rng):
        idx = rng.choice(self.size, batch_size, replace=False)
        return self.states[idx], self.actions[idx].view(np.int64), self.rewards[idx]


def calc_loss(batch, net):
    states, actions, rewards = batch
    states_v = torch.from_numpy(states)
    actions_v = torch.from_numpy(actions)
    rewards_v = torch.from_numpy(rewards)
    state_action_values = net(states_v).gather(1, actions_v.unsqueeze(-1)).squeeze(-1)
    return nn.functional.mse_loss(state_action_values, rewards_v)


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 6))
    buf = ExperienceBuffer(capacity=100, obs_dim=8)
    for t in range(50):
        buf.append(rng.standard_normal(8), t % 6, float(t % 3))
    loss = calc_loss(buf.sample(16, rng), net)
    print("loss", loss.item())
