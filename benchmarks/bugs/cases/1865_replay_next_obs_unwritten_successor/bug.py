import torch
import torch.nn as nn


class FrameReplay:
    """Circular replay that stores every observation once; next_obs of slot i is slot i + 1."""

    def __init__(self, capacity, obs_dim):
        self.capacity = capacity
        self.obs = torch.zeros(capacity, obs_dim)  # [C, D]
        self.actions = torch.zeros(capacity, dtype=torch.long)  # [C]
        self.rewards = torch.zeros(capacity)  # [C]
        self.dones = torch.zeros(capacity)  # [C]
        self.ptr = 0
        self.size = 0

    def add(self, obs, action, reward, done):
        # obs: [D]; the transition's next observation arrives with the next add()
        self.obs[self.ptr] = obs
        self.actions[self.ptr] = action
        self.rewards[self.ptr] = reward
        self.dones[self.ptr] = float(done)
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample_indices(self, batch_size, generator):
        return torch.randint(0, self.size, (batch_size,), generator=generator)  # [B]

    def gather(self, idx):
        # idx: [B] slot ids
        obs = self.obs[idx]  # [B, D]
        next_obs = self.obs[(idx + 1) % self.capacity]  # [B, D]
        return obs, self.actions[idx], self.rewards[idx], next_obs, self.dones[idx]


def td_targets(q_target, batch, gamma=0.99):
    obs, actions, rewards, next_obs, dones = batch
    with torch.no_grad():
        next_v = q_target(next_obs).max(dim=1).values  # [B]
    return rewards + gamma * (1.0 - dones) * next_v  # [B]


def rollout(buffer, steps, obs_dim, seed=0):
    g = torch.Generator().manual_seed(seed)
    trajectory = []  # (obs, action, reward, next_obs, done) as the environment produced them
    obs = torch.randn(obs_dim, generator=g)
    for t in range(steps):
        action = int(torch.randint(0, 2, (1,), generator=g))
        reward = float(torch.randn(1, generator=g))
        next_obs = torch.randn(obs_dim, generator=g)
        buffer.add(obs, action, reward, done=False)
        trajectory.append((obs, action, reward, next_obs, False))
        obs = next_obs
    return trajectory


if __name__ == "__main__":
    torch.manual_seed(0)
    buffer = FrameReplay(capacity=64, obs_dim=4)
    trajectory = rollout(buffer, steps=40, obs_dim=4)
    q_target = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
    idx = buffer.sample_indices(256, torch.Generator().manual_seed(1))
    batch = buffer.gather(idx)
    targets = td_targets(q_target, batch)
    wrong = 0
    for k, slot in enumerate(idx.tolist()):
        true_next = trajectory[slot][3]
        if not torch.equal(batch[3][k], true_next):
            wrong += 1
    print("sampled transitions whose next_obs is not the observed one:", wrong, "of", len(idx))
