import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU())
        self.mean = nn.Linear(64, act_dim)
        self.log_std = nn.Linear(64, act_dim)

    def get_action(self, obs):
        h = self.net(obs)
        mean, log_std = self.mean(h), self.log_std(h).clamp(-5, 2)
        normal = torch.distributions.Normal(mean, log_std.exp())
        x_t = normal.rsample()
        y_t = torch.tanh(x_t)
        log_prob = normal.log_prob(x_t) - torch.log(1 - y_t.pow(2) + 1e-6)
        log_prob = log_prob.sum(1, keepdim=True)                    # [B, 1]
        return y_t, log_prob


class SoftQNetwork(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], 1))                   # [B, 1]


def actor_loss_fn(actor, qf1, qf2, obs, is_weights, alpha):
    pi, log_pi = actor.get_action(obs)                               # [B, A], [B, 1]
    qf1_pi = qf1(obs, pi)
    qf2_pi = qf2(obs, pi)
    min_qf_pi = torch.min(qf1_pi, qf2_pi).view(-1)                  # [B]
    actor_loss = (is_weights * ((alpha * log_pi) - min_qf_pi)).mean()  # is_weights: [B]
    return actor_loss, log_pi, min_qf_pi


def main():
    torch.manual_seed(0)
    actor, qf1, qf2 = Actor(6, 2), SoftQNetwork(6, 2), SoftQNetwork(6, 2)
    obs = torch.randn(8, 6)
    is_weights = torch.rand(8) + 0.5                                 # prioritized-replay weights
    torch.manual_seed(1)
    loss, log_pi, min_q = actor_loss_fn(actor, qf1, qf2, obs, is_weights, alpha=0.2)
    log_pi, min_q = log_pi.detach(), min_q.detach()
    ref = sum(float(is_weights[i]) * (0.2 * float(log_pi[i, 0]) - float(min_q[i])) for i in range(8)) / 8
    print("actor loss:", loss.item(), "| per-sample reference:", ref)


if __name__ == "__main__":
    main()
