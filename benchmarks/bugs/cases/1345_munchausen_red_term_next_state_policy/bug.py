import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.network = nn.Sequential(
            nn.Linear(obs_dim, 120),
            nn.ReLU(),
            nn.Linear(120, 84),
            nn.ReLU(),
            nn.Linear(84, n_actions),
        )

    def forward(self, x):
        return self.network(x)


def munchausen_td_target(target_network, data, gamma=0.99, tau=0.03, alpha=0.9, l_0=-1.0):
    with torch.no_grad():
        target_q_values = target_network(data["next_observations"])
        target_log_policy = F.log_softmax(target_q_values / tau, dim=-1)
        target_next_q_values = target_network(data["next_observations"])
        target_next_log_policy = F.log_softmax(target_next_q_values / tau, dim=-1)
        target_next_policy = target_next_log_policy.exp()

        red_term = alpha * (tau * target_log_policy.gather(1, data["actions"])).clamp(l_0, 0.0)
        blue_term = -tau * target_next_log_policy
        soft_next_value = (target_next_policy * (target_next_q_values + blue_term)).sum(dim=-1, keepdim=True)
        munchausen_target = data["rewards"] + red_term + gamma * (1 - data["dones"]) * soft_next_value
    return munchausen_target.squeeze(-1)


def reference_targets(target_network, data, gamma=0.99, tau=0.03, alpha=0.9, l_0=-1.0):
    out = []
    with torch.no_grad():
        for i in range(data["observations"].shape[0]):
            q_s = target_network(data["observations"][i]).tolist()
            q_next = target_network(data["next_observations"][i]).tolist()
            a = int(data["actions"][i, 0])
            m = max(v / tau for v in q_s)
            log_pi_a = q_s[a] / tau - (m + math.log(sum(math.exp(v / tau - m) for v in q_s)))
            red = alpha * min(max(tau * log_pi_a, l_0), 0.0)
            m2 = max(v / tau for v in q_next)
            lse2 = m2 + math.log(sum(math.exp(v / tau - m2) for v in q_next))
            soft_v = sum(math.exp(v / tau - lse2) * (v - tau * (v / tau - lse2)) for v in q_next)
            r, d = float(data["rewards"][i, 0]), float(data["dones"][i, 0])
            out.append(r + red + gamma * (1 - d) * soft_v)
    return torch.tensor(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    target_network = QNetwork(obs_dim=4, n_actions=2)
    data = {
        "observations": torch.randn(32, 4),
        "next_observations": torch.randn(32, 4),
        "actions": torch.randint(0, 2, (32, 1)),
        "rewards": torch.ones(32, 1),
        "dones": (torch.rand(32, 1) < 0.1).float(),
    }
    td_target = munchausen_td_target(target_network, data)
    ref = reference_targets(target_network, data)
    print("td target shape:", tuple(td_target.shape))
    print("max |td_target - reference|:", (td_target - ref).abs().max().item())
