import torch
import torch.nn as nn


class QuantileNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, n_quantiles=25, hidden=64):
        super().__init__()
        self.n_actions = n_actions
        self.n_quantiles = n_quantiles
        self.body = nn.Sequential(
            nn.Linear(obs_dim, hidden),
            nn.ReLU(),
            nn.Linear(hidden, n_actions * n_quantiles),
        )

    def forward(self, obs):
        out = self.body(obs)
        return out.view(-1, self.n_quantiles, self.n_actions)


class QRDQNLearner:
    def __init__(self, quantile_net, quantile_net_target, gamma=0.99):
        self.quantile_net = quantile_net
        self.quantile_net_target = quantile_net_target
        self.gamma = gamma
        self.n_quantiles = quantile_net.n_quantiles

    @torch.no_grad()
    def target_quantiles(self, next_obs, rewards, dones):
        next_quantiles = self.quantile_net_target(next_obs)
        # follow the greedy policy
        next_quantiles, _ = next_quantiles.max(dim=2)
        return rewards + (1 - dones) * self.gamma * next_quantiles

    def current_quantiles(self, obs, actions):
        quantiles = self.quantile_net(obs)
        actions = actions[..., None, None].long().expand(-1, self.n_quantiles, 1)
        return torch.gather(quantiles, dim=2, index=actions).squeeze(dim=2)


if __name__ == "__main__":
    torch.manual_seed(0)
    online = QuantileNetwork(obs_dim=8, n_actions=4)
    target = QuantileNetwork(obs_dim=8, n_actions=4)
    learner = QRDQNLearner(online, target)

    next_obs = torch.randn(32, 8)
    rewards = torch.randn(32, 1)
    dones = (torch.rand(32, 1) < 0.1).float()
    got = learner.target_quantiles(next_obs, rewards, dones)

    with torch.no_grad():
        q = target(next_obs)
    ref = torch.empty(32, online.n_quantiles)
    for i in range(32):
        best = max(range(4), key=lambda a: q[i, :, a].mean().item())
        for j in range(online.n_quantiles):
            ref[i, j] = rewards[i, 0] + (1 - dones[i, 0]) * 0.99 * q[i, j, best]
    print("target shape:", tuple(got.shape))
    print("mean target:", got.mean().item(), "greedy-action reference:", ref.mean().item())
    print("matches greedy-action reference:", torch.allclose(got, ref, atol=1e-6))
