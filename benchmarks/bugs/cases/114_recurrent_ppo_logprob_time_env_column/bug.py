import torch
import torch.nn as nn


class RecurrentActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden):
        super().__init__()
        self.rnn = nn.GRU(obs_dim, hidden)
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, obs, h0):
        out, _ = self.rnn(obs, h0)
        return self.actor(out).log_softmax(dim=-1), self.critic(out).squeeze(-1)


def ppo_loss_per_step(model, batch, clip=0.1, value_coef=0.5, entropy_coef=0.01):
    log_probs, values = model(batch["observations"], batch["hidden"])
    actions = batch["actions"]
    action_log_probs = log_probs.gather(-1, actions.unsqueeze(-1))
    dist_entropy = -(log_probs.exp() * log_probs).sum(-1)
    ratio = torch.exp(action_log_probs - batch["old_action_log_probs"])
    surr1 = ratio * batch["advantages"]
    surr2 = ratio.clamp(1 - clip, 1 + clip) * batch["advantages"]
    value_loss = (batch["returns"] - values).pow(2)
    return (-torch.min(surr1, surr2) + value_coef * value_loss - entropy_coef * dist_entropy).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = RecurrentActorCritic(obs_dim=10, n_actions=4, hidden=32)
    observations = torch.randn(16, 8, 10)
    hidden = torch.zeros(1, 8, 32)
    actions = torch.randint(0, 4, (16, 8))
    with torch.no_grad():
        old = model(observations, hidden)[0].gather(-1, actions.unsqueeze(-1)).squeeze(-1) + 0.05 * torch.randn(16, 8)
    batch = {
        "observations": observations,
        "hidden": hidden,
        "actions": actions,
        "old_action_log_probs": old,
        "advantages": torch.randn(16, 8),
        "returns": torch.randn(16, 8),
    }
    loss = ppo_loss_per_step(model, batch)
    lp, v = model(observations, hidden)
    new = torch.stack([torch.stack([lp[t, n, actions[t, n]] for n in range(8)]) for t in range(16)])
    r = torch.exp(new - old)
    adv = batch["advantages"]
    ent = -(lp.exp() * lp).sum(-1)
    ref = (-torch.min(r * adv, r.clamp(0.9, 1.1) * adv) + 0.5 * (batch["returns"] - v).pow(2) - 0.01 * ent).mean()
    print("loss:", loss.item(), "per-(step, env) reference:", ref.item())
