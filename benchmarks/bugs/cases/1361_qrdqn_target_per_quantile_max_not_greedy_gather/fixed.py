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
        # greedy action w.r.t. the mean over quantiles, one copy per quantile
        next_actions = next_quantiles.mean(dim=1, keepdim=True).argmax(dim=2, keepdim=True)
        next_actions = next_actions.expand(-1, self.n_quantiles, 1)
        next_quantiles = next_quantiles.gather(dim=2, index=next_actions).squeeze(dim=2)
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
    assert got.shape == (32, online.n_quantiles)
    assert torch.allclose(got, ref, atol=1e-6)
    print("ok")
