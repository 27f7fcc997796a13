import torch
import torch.nn as nn


class ReplayMemory:
    def __init__(self, capacity, obs_dim, n_actions):
        self.states = torch.zeros(capacity, obs_dim)             # [N, obs_dim]
        self.next_states = torch.zeros(capacity, obs_dim)        # [N, obs_dim]
        self.actions = torch.zeros(capacity, n_actions, dtype=torch.uint8)  # [N, A] one-hot
        self.rewards = torch.zeros(capacity)                     # [N]
        self.dones = torch.zeros(capacity)                       # [N]
        self.n = 0

    def store(self, s, a, r, s2, done):
        self.states[self.n], self.next_states[self.n] = s, s2
        self.actions[self.n, a] = 1
        self.rewards[self.n], self.dones[self.n] = r, float(done)
        self.n += 1


class Agent:
    def __init__(self, obs_dim=8, n_actions=4, gamma=0.99):
        self.q_net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.action_space = torch.arange(n_actions, dtype=torch.uint8)  # [A]
        self.gamma = gamma

    def td_targets(self, mem, batch_size):
        idx = torch.arange(batch_size)
        states, next_states = mem.states[idx], mem.next_states[idx]   # [B, obs_dim]
        action_batch = mem.actions[idx]                                # [B, A] one-hot
        action_indices = action_batch @ self.action_space              # [B]
        with torch.no_grad():
            q_eval = self.q_net(states)                                # [B, A]
            q_next = self.q_net(next_states)                           # [B, A]
        q_target = q_eval.clone()
        batch_index = torch.arange(batch_size)
        q_target[batch_index, action_indices] = mem.rewards[idx] + \
            self.gamma * q_next.max(dim=1).values * (1 - mem.dones[idx])
        return q_eval, q_target, action_indices


if __name__ == "__main__":
    torch.manual_seed(0)
    mem = ReplayMemory(64, 8, 4)
    for t in range(16):
        mem.store(torch.randn(8), t % 4, float(t % 3), torch.randn(8), t % 5 == 0)
    agent = Agent()
    q_eval, q_target, acts = agent.td_targets(mem, 16)
    print("actions", acts.tolist())
    print("changed entries per row", (q_eval != q_target).sum(1).tolist())
