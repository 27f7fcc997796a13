import numpy as np
import torch
import torch.nn as nn


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.states = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int32)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.ptr = 0

    def push(self, s, a, r):
        self.states[self.ptr], self.actions[self.ptr], self.rewards[self.ptr] = s, a, r
        self.ptr += 1

    def sample(self, idx):
        return (torch.from_numpy(self.states[idx]),
                torch.from_numpy(self.actions[idx]).long(),
                torch.from_numpy(self.rewards[idx]))


def calc_loss(net, batch):
    states_v, actions_v, rewards_v = batch
    q_all = net(states_v)
    q_taken = torch.take_along_dim(q_all, actions_v.unsqueeze(-1), dim=1).squeeze(-1)
    return nn.functional.mse_loss(q_taken, rewards_v), q_taken


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    net = nn.Linear(4, 3)
    buf = ReplayBuffer(32, 4)
    for _ in range(16):
        buf.push(rng.standard_normal(4), rng.integers(0, 3), rng.standard_normal())
    batch = buf.sample(np.arange(8))
    loss, q_taken = calc_loss(net, batch)
    states_v, actions_v, rewards_v = batch
    q_all = net(states_v)
    ref = torch.stack([q_all[i, int(actions_v[i])] for i in range(len(actions_v))])
    assert torch.allclose(q_taken, ref)
    print("ok")
