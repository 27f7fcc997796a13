import torch
import torch.nn as nn

CFG = {"obs_dim": 6, "num_actions": 4, "hidden": 32, "eval_envs": 8, "seed": 1}


class Actor(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(cfg["obs_dim"], cfg["hidden"]), nn.ReLU(), nn.Linear(cfg["hidden"], cfg["num_actions"])
        )

    def forward(self, obs):
        return self.body(obs).softmax(dim=-1)

    def max_probability_action(self, obs):
        probs = self(obs)
        return torch.argmax(probs)


class Critic(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.q = nn.Linear(cfg["obs_dim"], cfg["num_actions"])

    def forward(self, obs):
        return self.q(obs)


def greedy_value(actor, critic, obs):
    actions = actor.max_probability_action(obs)
    q = critic(obs)
    return q[torch.arange(q.size(0)), actions], actions


if __name__ == "__main__":
    torch.manual_seed(CFG["seed"])
    actor, critic = Actor(CFG), Critic(CFG)
    obs = torch.randn(CFG["eval_envs"], CFG["obs_dim"])
    values, actions = greedy_value(actor, critic, obs)
    print("greedy actions:", actions.tolist())
    print("mean greedy value:", values.mean().item())
