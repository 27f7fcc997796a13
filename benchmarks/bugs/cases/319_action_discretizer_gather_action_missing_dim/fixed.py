import torch
import torch.nn as nn

ENV_CFG = {"num_envs": 4, "obs_dim": 5, "low": -2.0, "high": 2.0, "num_bins": 7}


class ActionDiscretizer:
    def __init__(self, cfg):
        self.num_bins = cfg["num_bins"]
        self.intervals = torch.linspace(cfg["low"], cfg["high"], cfg["num_bins"])

    def inv(self, action):
        intervals = self.intervals.expand(action.shape[:1] + self.intervals.shape)
        return intervals.gather(index=action.unsqueeze(-1), dim=-1).squeeze(-1)


class CategoricalActor(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(cfg["obs_dim"], 32), nn.Tanh(), nn.Linear(32, cfg["num_bins"]))

    def forward(self, obs):
        dist = torch.distributions.Categorical(logits=self.net(obs))
        action = dist.sample()
        return action, dist.log_prob(action)


def rollout_step(actor, discretizer, obs):
    action, log_prob = actor(obs)
    env_action = discretizer.inv(action)
    return env_action, action, log_prob


def main():
    torch.manual_seed(0)
    actor = CategoricalActor(ENV_CFG)
    discretizer = ActionDiscretizer(ENV_CFG)
    obs = torch.randn(ENV_CFG["num_envs"], ENV_CFG["obs_dim"])
    env_action, action, _ = rollout_step(actor, discretizer, obs)
    step = (ENV_CFG["high"] - ENV_CFG["low"]) / (ENV_CFG["num_bins"] - 1)
    assert env_action.shape == (ENV_CFG["num_envs"],)
    for e in range(ENV_CFG["num_envs"]):
        assert abs(float(env_action[e]) - (ENV_CFG["low"] + step * int(action[e]))) < 1e-6
    print("ok")


if __name__ == "__main__":
    main()
