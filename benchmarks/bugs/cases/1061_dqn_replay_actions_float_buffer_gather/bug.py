import numpy as np
import torch
import torch.nn as nn


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.states = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.float32)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.next_states = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.dones = np.zeros(capacity, dtype=np.bool_)
        self.size = 0

    def push(self, s, a, r, s2, d):
        i = self.size
        self.states[i], self.actions[i], self.rewards[i] = s, a, r
        self.next_states[i], self.dones[i] = s2, d
        self.size += 1

    def sample(self, idx):
        return (self.states[idx], self.actions[idx], self.rewards[idx],
                self.next_states[idx], self.dones[idx])


def calc_loss(batch, net, tgt_net, gamma=0.99):
    states, actions, rewards, next_states, dones = batch
    states_v = torch.tensor(states)            # (B, obs_dim)
    next_states_v = torch.tensor(next_states)  # (B, obs_dim)
    actions_v = torch.tensor(actions)          # (B,)
    rewards_v = torch.tensor(rewards)          # (B,)
    done_mask = torch.tensor(dones)            # (B,)

    # Q(s, a) for the taken action: (B, n_actions) -> (B,)
    q_sa = net(states_v).gather(1, actions_v.unsqueeze(-1)).squeeze(-1)
    with torch.no_grad():
        next_v = tgt_net(next_states_v).max(1)[0]  # (B,)
        next_v[done_mask] = 0.0
    target = rewards_v + gamma * next_v
    return nn.functional.mse_loss(q_sa, target)


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    obs_dim, n_actions = 4, 3
    net = nn.Linear(obs_dim, n_actions)
    tgt_net = nn.Linear(obs_dim, n_actions)
    buf = ReplayBuffer(64, obs_dim)
    for _ in range(32):
        buf.push(rng.normal(size=obs_dim), rng.integers(n_actions), rng.normal(),
                 rng.normal(size=obs_dim), rng.random() < 0.1)
    loss = calc_loss(buf.sample(np.arange(8)), net, tgt_net)
    print("loss", loss.item())
