import numpy as np
import torch
import torch.nn as nn


class QNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 4))

    def forward(self, state):
        return self.body(state)


class Agent:
    def __init__(self, gamma=0.99, batch_size=6, mem_size=50):
        self.gamma = gamma
        self.batch_size = batch_size
        self.mem_size = mem_size
        self.mem_cntr = 0
        self.q_eval = QNetwork()
        self.state_memory = np.zeros((mem_size, 8), dtype=np.float32)
        self.new_state_memory = np.zeros((mem_size, 8), dtype=np.float32)
        self.action_memory = np.zeros(mem_size, dtype=np.float32)
        self.reward_memory = np.zeros(mem_size, dtype=np.float32)
        self.terminal_memory = np.zeros(mem_size, dtype=bool)

    def store_transition(self, state, action, reward, state_, done):
        i = self.mem_cntr % self.mem_size
        self.state_memory[i] = state
        self.new_state_memory[i] = state_
        self.action_memory[i] = action
        self.reward_memory[i] = reward
        self.terminal_memory[i] = done
        self.mem_cntr += 1

    def td_targets(self, rng):
        batch = rng.choice(min(self.mem_cntr, self.mem_size), self.batch_size, replace=False)
        batch_index = torch.arange(self.batch_size)
        states = torch.tensor(self.state_memory[batch])
        next_states = torch.tensor(self.new_state_memory[batch])
        actions = torch.tensor(self.action_memory[batch])
        rewards = torch.tensor(self.reward_memory[batch])
        dones = torch.tensor(self.terminal_memory[batch])

        q_eval = self.q_eval(states)[batch_index, actions]
        q_next = self.q_eval(next_states)
        q_next[dones] = 0.0
        q_target = rewards + self.gamma * q_next.max(dim=1)[0]
        return q_eval, q_target


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    agent = Agent()
    for t in range(20):
        s, s2 = rng.standard_normal(8), rng.standard_normal(8)
        agent.store_transition(s, int(rng.integers(4)), float(rng.random()), s2, t % 7 == 6)
    q_eval, q_target = agent.td_targets(rng)
    print("td error:", (q_target - q_eval).abs().mean().item())
