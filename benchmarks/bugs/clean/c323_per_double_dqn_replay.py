import torch
import torch.nn as nn
import torch.nn.functional as F


class PrioritizedReplay:
    def __init__(self, capacity, obs_dim):
        self.obs = torch.zeros(capacity, obs_dim)
        self.next_obs = torch.zeros(capacity, obs_dim)
        self.actions = torch.zeros(capacity, dtype=torch.long)
        self.rewards = torch.zeros(capacity)
        self.dones = torch.zeros(capacity)
        self.priorities = torch.zeros(capacity)
        self.capacity, self.ptr, self.size = capacity, 0, 0

    def add(self, obs, action, reward, next_obs, done):
        n = obs.size(0)
        slots = (self.ptr + torch.arange(n)) % self.capacity
        self.obs.index_copy_(0, slots, obs)
        self.next_obs.index_copy_(0, slots, next_obs)
        self.actions.index_copy_(0, slots, action)
        self.rewards.index_copy_(0, slots, reward)
        self.dones.index_copy_(0, slots, done)
        self.priorities.index_fill_(0, slots, 1.0)
        self.ptr, self.size = (self.ptr + n) % self.capacity, min(self.size + n, self.capacity)

    def sample(self, batch_size, alpha=0.6, beta=0.4):
        probs = self.priorities[: self.size] ** alpha
        probs = probs / probs.sum()
        idx = torch.multinomial(probs, batch_size, replacement=False)
        weights = (self.size * probs[idx]) ** (-beta)
        return idx, weights / weights.max()


def double_dqn_loss(online, target, buf, idx, weights, gamma=0.99):
    q = online(buf.obs[idx]).gather(1, buf.actions[idx].unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        next_a = online(buf.next_obs[idx]).argmax(dim=1, keepdim=True)
        next_q = target(buf.next_obs[idx]).gather(1, next_a).squeeze(1)
        y = buf.rewards[idx] + gamma * (1 - buf.dones[idx]) * next_q
    td = y - q
    buf.priorities[idx] = td.detach().abs() + 1e-3
    return (weights * F.smooth_l1_loss(q, y, reduction="none")).mean(), q, y


def main():
    torch.manual_seed(0)
    online, target = nn.Linear(4, 3), nn.Linear(4, 3)
    buf = PrioritizedReplay(capacity=32, obs_dim=4)
    for _ in range(5):
        buf.add(torch.randn(8, 4), torch.randint(0, 3, (8,)), torch.randn(8), torch.randn(8, 4), (torch.rand(8) < 0.1).float())
    idx, weights = buf.sample(10)
    loss, q, y = double_dqn_loss(online, target, buf, idx, weights)
    ref = 0.0
    with torch.no_grad():
        for j, i in enumerate(idx.tolist()):
            q_ref = float(online(buf.obs[i])[int(buf.actions[i])])
            a_star = int(online(buf.next_obs[i]).argmax())
            y_ref = float(buf.rewards[i]) + 0.99 * (1 - float(buf.dones[i])) * float(target(buf.next_obs[i])[a_star])
            d = abs(y_ref - q_ref)
            ref += float(weights[j]) * (0.5 * d * d if d < 1 else d - 0.5)
            assert abs(float(buf.priorities[i]) - (d + 1e-3)) < 1e-5
    assert abs(loss.item() - ref / 10) < 1e-5
    print("ok")


if __name__ == "__main__":
    main()
