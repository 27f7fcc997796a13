"""QR-DQN update with a Double-DQN target, in the style of sb3-contrib / cleanrl."""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class QRConfig:
    obs_dim: int = 8
    n_actions: int = 4
    n_quantiles: int = 16
    gamma: float = 0.99
    kappa: float = 1.0


class QuantileNet(nn.Module):
    def __init__(self, cfg: QRConfig):
        super().__init__()
        self.cfg = cfg
        self.body = nn.Sequential(nn.Linear(cfg.obs_dim, 64), nn.ReLU(),
                                  nn.Linear(64, cfg.n_actions * cfg.n_quantiles))

    def forward(self, obs):
        # returns quantiles [batch, n_quantiles, n_actions]
        return self.body(obs).view(-1, self.cfg.n_quantiles, self.cfg.n_actions)


def quantile_huber_loss(current, target, kappa=1.0):
    """current: [B, Nq], target: [B, Nq'] -> scalar."""
    n_q = current.size(1)
    tau = (torch.arange(n_q, dtype=current.dtype) + 0.5) / n_q  # [Nq]
    td = target.unsqueeze(1) - current.unsqueeze(2)  # [B, Nq, Nq']
    abs_td = td.abs()
    huber = torch.where(abs_td <= kappa, 0.5 * td.pow(2), kappa * (abs_td - 0.5 * kappa))
    weight = (tau.view(1, -1, 1) - (td.detach() < 0).float()).abs()
    return (weight * huber / kappa).sum(dim=1).mean()


def qrdqn_loss(online, target_net, batch, cfg: QRConfig):
    obs, actions, rewards, next_obs, dones = batch  # actions: [B] long
    B = obs.size(0)
    with torch.no_grad():
        next_online = online(next_obs)  # [B, Nq, A]
        best = next_online.mean(dim=1).argmax(dim=1)  # [B]
        next_target = target_net(next_obs)  # [B, Nq, A]
        best_idx = best.view(B, 1, 1).expand(B, cfg.n_quantiles, 1)
        next_q = next_target.gather(2, best_idx).squeeze(2)  # [B, Nq]
        target_q = rewards.unsqueeze(1) + (1.0 - dones.unsqueeze(1)) * cfg.gamma * next_q  # [B, Nq]
    current = online(obs)  # [B, Nq, A]
    act_idx = actions.view(B, 1, 1).expand(B, cfg.n_quantiles, 1)
    current_q = current.gather(2, act_idx).squeeze(2)  # [B, Nq]
    return quantile_huber_loss(current_q, target_q, cfg.kappa), current_q, target_q


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = QRConfig()
    online, target_net = QuantileNet(cfg), QuantileNet(cfg)
    B = 10
    batch = (torch.randn(B, cfg.obs_dim), torch.randint(0, cfg.n_actions, (B,)), torch.randn(B),
             torch.randn(B, cfg.obs_dim), (torch.rand(B) < 0.2).float())
    loss, current_q, target_q = qrdqn_loss(online, target_net, batch, cfg)
    loss.backward()
    current_q = current_q.detach()

    obs, actions, rewards, next_obs, dones = batch
    with torch.no_grad():
        q_on, q_next_on, q_next_tg = online(obs), online(next_obs), target_net(next_obs)
    for i in range(B):
        a = int(actions[i])
        for j in range(cfg.n_quantiles):
            assert abs(float(current_q[i, j]) - float(q_on[i, j, a])) < 1e-6
        means = [sum(float(q_next_on[i, j, b]) for j in range(cfg.n_quantiles)) for b in range(cfg.n_actions)]
        a_star = max(range(cfg.n_actions), key=lambda b: means[b])
        for j in range(cfg.n_quantiles):
            expect = float(rewards[i]) + (1.0 - float(dones[i])) * cfg.gamma * float(q_next_tg[i, j, a_star])
            assert abs(float(target_q[i, j]) - expect) < 1e-5
    print("ok")
