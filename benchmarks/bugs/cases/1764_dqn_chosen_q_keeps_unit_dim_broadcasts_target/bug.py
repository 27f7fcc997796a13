import torch
from torch import nn


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs):
        return self.net(obs)


def td_loss(q_net, target_net, batch, gamma):
    obs, actions, rewards, next_obs, dones = batch
    q_taken = q_net(obs).gather(1, actions.unsqueeze(1))
    with torch.no_grad():
        next_q = target_net(next_obs).max(dim=1).values
        target = rewards + gamma * (1.0 - dones) * next_q
    return ((q_taken - target) ** 2).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    q_net, target_net = QNetwork(8, 4), QNetwork(8, 4)
    batch = (
        torch.randn(32, 8),
        torch.randint(0, 4, (32,)),
        torch.randn(32),
        torch.randn(32, 8),
        (torch.rand(32) < 0.1).float(),
    )
    loss = td_loss(q_net, target_net, batch, gamma=0.99)

    obs, actions, rewards, next_obs, dones = batch
    with torch.no_grad():
        q_all, next_all = q_net(obs), target_net(next_obs)
        total = 0.0
        for i in range(32):
            y = rewards[i] + 0.99 * (1.0 - dones[i]) * next_all[i].max()
            total += float((q_all[i, actions[i]] - y) ** 2)
    print("td loss:", round(loss.item(), 4), "per-sample reference:", round(total / 32, 4))
