import torch
import torch.nn as nn


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = torch.zeros(capacity, obs_dim)  # [C, obs_dim]
        self.actions = torch.zeros(capacity, dtype=torch.long)  # [C]
        self.rewards = torch.zeros(capacity)  # [C]
        self.dones = torch.zeros(capacity)  # [C]
        self.capacity, self.ptr, self.size = capacity, 0, 0

    def add(self, obs, action, reward, done):
        self.obs[self.ptr], self.actions[self.ptr] = obs, action
        self.rewards[self.ptr], self.dones[self.ptr] = reward, done
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size, n_step, gamma, generator):
        idx = torch.randint(0, self.size - n_step, (batch_size,), generator=generator)  # [B]
        steps = idx.unsqueeze(1) + torch.arange(n_step).unsqueeze(0)  # [B, n]
        rewards, dones = self.rewards[steps], self.dones[steps]  # [B, n]
        alive = torch.cumprod(torch.cat([torch.ones(batch_size, 1), 1 - dones[:, :-1]], dim=1), dim=1)
        discounts = gamma ** torch.arange(n_step, dtype=torch.float)  # [n]
        returns = (rewards * alive * discounts).sum(dim=1)  # [B]
        not_done = alive[:, -1] * (1 - dones[:, -1])  # [B]
        return self.obs[idx], self.actions[idx], returns, self.obs[idx + n_step], not_done


def double_dqn_loss(q_net, target_net, batch, gamma_n):
    obs, actions, returns, next_obs, not_done = batch
    q_sa = q_net(obs).gather(1, actions.unsqueeze(1)).squeeze(1)  # [B]
    with torch.no_grad():
        next_actions = q_net(next_obs).argmax(dim=1, keepdim=True)  # [B, 1]
        next_q = target_net(next_obs).gather(1, next_actions).squeeze(1)  # [B]
        target = returns + gamma_n * not_done * next_q  # [B]
    return nn.functional.smooth_l1_loss(q_sa, target), q_sa, target


if __name__ == "__main__":
    torch.manual_seed(0)
    buf = ReplayBuffer(capacity=50, obs_dim=4)
    for t in range(50):
        buf.add(torch.randn(4), t % 3, float(t % 5) / 5, float(t % 11 == 10))
    q_net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
    target_net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
    gamma, n = 0.9, 3
    idx_gen = torch.Generator().manual_seed(1)
    batch = buf.sample(8, n, gamma, torch.Generator().manual_seed(1))
    loss, q_sa, target = double_dqn_loss(q_net, target_net, batch, gamma ** n)
    idx = torch.randint(0, buf.size - n, (8,), generator=idx_gen)
    for b in range(8):
        i = idx[b].item()
        ret, live = 0.0, 1.0
        for k in range(n):
            ret += live * gamma ** k * buf.rewards[i + k].item()
            live *= 1 - buf.dones[i + k].item()
        assert abs(ret - batch[2][b].item()) < 1e-5
        assert torch.allclose(q_sa[b], q_net(buf.obs[i])[buf.actions[i]])
        a_star = q_net(buf.obs[i + n]).argmax().item()
        expected = ret + gamma ** n * live * target_net(buf.obs[i + n])[a_star].item()
        assert abs(target[b].item() - expected) < 1e-5
    print("ok")
