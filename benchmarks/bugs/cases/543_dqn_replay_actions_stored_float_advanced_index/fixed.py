import numpy as np
import torch
from torch import nn


class ReplayBuffer:
    def __init__(self, max_size, obs_dim):
        self.mem_size = max_size
        self.mem_cntr = 0
        self.state_memory = np.zeros((max_size, obs_dim), dtype=np.float32)
        self.new_state_memory = np.zeros((max_size, obs_dim), dtype=np.float32)
        self.action_memory = np.zeros(max_size, dtype=np.int64)
        self.reward_memory = np.zeros(max_size, dtype=np.float32)
        self.terminal_memory = np.zeros(max_size, dtype=bool)

    def store(self, s, a, r, s_, done):
        i = self.mem_cntr % self.mem_size
        self.state_memory[i], self.action_memory[i], self.reward_memory[i] = s, a, r
        self.new_state_memory[i], self.terminal_memory[i] = s_, done
        self.mem_cntr += 1

    def sample(self, batch_size, rng):
        idx = rng.choice(min(self.mem_cntr, self.mem_size), batch_size, replace=False)
        return (self.state_memory[idx], self.action_memory[idx], self.reward_memory[idx],
                self.new_state_memory[idx], self.terminal_memory[idx])


class Agent:
    def __init__(self, gamma=0.99, batch_size=8):
        self.gamma, self.batch_size = gamma, batch_size
        self.q_eval = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 3))
        self.q_next = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 3))
        self.memory = ReplayBuffer(100, 4)
        self.rng = np.random.default_rng(0)

    def learn(self):
        s, a, r, s_, done = self.memory.sample(self.batch_size, self.rng)
        states, actions = torch.tensor(s), torch.tensor(a)
        rewards, states_ = torch.tensor(r), torch.tensor(s_)
        dones = torch.tensor(done)
        indices = np.arange(self.batch_size)
        q_pred = self.q_eval(states)[indices, actions]
        q_next = self.q_next(states_).max(dim=1)[0]
        q_next[dones] = 0.0
        q_target = rewards + self.gamma * q_next
        return nn.functional.mse_loss(q_pred, q_target.detach())


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = Agent()
    rng = np.random.default_rng(1)
    for t in range(20):
        agent.memory.store(rng.normal(size=4), int(rng.integers(3)), float(rng.normal()),
                           rng.normal(size=4), t % 7 == 6)
    agent.rng = np.random.default_rng(5)
    loss = agent.learn()
    s, a, r, s_, done = agent.memory.sample(agent.batch_size, np.random.default_rng(5))
    ref = 0.0
    with torch.no_grad():
        for i in range(agent.batch_size):
            q = agent.q_eval(torch.tensor(s[i]))[int(a[i])]
            nxt = 0.0 if done[i] else agent.q_next(torch.tensor(s_[i])).max().item()
            ref += (q.item() - (r[i] + agent.gamma * nxt)) ** 2
    ref /= agent.batch_size
    assert abs(loss.item() - ref) < 1e-5, (loss.item(), ref)
    print("ok")
