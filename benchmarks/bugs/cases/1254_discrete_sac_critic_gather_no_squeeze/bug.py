import torch
import torch.nn as nn
import torch.nn.functional as F


class TwinQNetwork(nn.Module):
    def __init__(self, obs_dim, num_actions, hidden=32):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, num_actions))
        self.q2 = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, num_actions))

    def forward(self, obs):
        return self.q1(obs), self.q2(obs)  # [B, A] each


def soft_target_value(target_critic, policy_logits, next_obs, alpha):
    next_q1, next_q2 = target_critic(next_obs)          # [B, A]
    log_pi = F.log_softmax(policy_logits, dim=-1)       # [B, A]
    next_q = torch.min(next_q1, next_q2)                # [B, A]
    return (log_pi.exp() * (next_q - alpha * log_pi)).sum(dim=-1)  # [B]


def critic_loss(critic, target_critic, policy_logits, batch, gamma=0.99, alpha=0.2):
    obs, actions, rewards, next_obs, dones = batch      # [B, D], [B], [B], [B, D], [B]
    with torch.no_grad():
        next_v = soft_target_value(target_critic, policy_logits, next_obs, alpha)   # [B]
        target_q = rewards + gamma * (1.0 - dones) * next_v                      # [B]
    q1_all, q2_all = critic(obs)                        # [B, A]
    q1 = q1_all.gather(1, actions.unsqueeze(1))        # [B, 1]
    q2 = q2_all.gather(1, actions.unsqueeze(1))        # [B, 1]
    return ((q1 - target_q) ** 2).mean() + ((q2 - target_q) ** 2).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    critic, target_critic = TwinQNetwork(4, 3), TwinQNetwork(4, 3)
    B = 6
    batch = (torch.randn(B, 4), torch.randint(0, 3, (B,)), torch.randn(B),
             torch.randn(B, 4), torch.zeros(B))
    policy_logits = torch.randn(B, 3)
    loss = critic_loss(critic, target_critic, policy_logits, batch)
    with torch.no_grad():
        obs, actions, rewards, next_obs, dones = batch
        target = rewards + 0.99 * soft_target_value(target_critic, policy_logits, next_obs, 0.2)
        q1_all, q2_all = critic(obs)
        ref = sum((q1_all[b, actions[b]] - target[b]) ** 2 + (q2_all[b, actions[b]] - target[b]) ** 2 for b in range(B)) / B
    print("loss:", loss.item(), "per-sample loop loss:", ref.item())
