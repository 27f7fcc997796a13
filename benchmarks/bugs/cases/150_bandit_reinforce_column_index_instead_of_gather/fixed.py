import torch
import torch.nn as nn


class BanditPolicy(nn.Module):
    def __init__(self, context_dim, num_arms):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(context_dim, 32), nn.Tanh(), nn.Linear(32, num_arms))

    def forward(self, contexts):
        return self.net(contexts)  # [B, A] logits


def reinforce_loss(policy, contexts, actions, rewards, baseline):
    # contexts: [B, D], actions: [B], rewards: [B]
    log_probs = policy(contexts).log_softmax(dim=-1)  # [B, A]
    chosen = log_probs.gather(1, actions.unsqueeze(1)).squeeze(1)  # [B] log-prob of the arm pulled for each context
    advantage = rewards - baseline  # [B]
    return -(chosen * advantage).mean(), chosen.exp().mean()


def pull(contexts, actions, arm_weights):
    return (contexts @ arm_weights).gather(1, actions.unsqueeze(1)).squeeze(1) + 0.1 * torch.randn(len(actions))


if __name__ == "__main__":
    torch.manual_seed(0)
    arm_weights = torch.randn(6, 4)  # [D, A]
    policy = BanditPolicy(context_dim=6, num_arms=4)
    contexts = torch.randn(16, 6)  # [B, D]
    with torch.no_grad():
        actions = torch.distributions.Categorical(logits=policy(contexts)).sample()  # [B]
    rewards = pull(contexts, actions, arm_weights)  # [B]
    loss, mean_prob = reinforce_loss(policy, contexts, actions, rewards, baseline=rewards.mean())
    log_probs = policy(contexts).log_softmax(-1)
    expected = -sum(log_probs[i, actions[i]] * (rewards[i] - rewards.mean()) for i in range(16)) / 16
    assert torch.allclose(loss, expected, atol=1e-6)
    probs = log_probs.exp()
    assert torch.allclose(mean_prob, sum(probs[i, actions[i]] for i in range(16)) / 16, atol=1e-6)
    print("loss:", loss.item())
    print("ok")
