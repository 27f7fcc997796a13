import torch
import torch.nn as nn


class Agent:
    def __init__(self, cfg):
        self.cfg = cfg
        self.q_net = nn.Sequential(nn.Linear(cfg["obs_dim"], 64), nn.ReLU(), nn.Linear(64, cfg["n_actions"]))
        self.target_net = nn.Sequential(nn.Linear(cfg["obs_dim"], 64), nn.ReLU(), nn.Linear(64, cfg["n_actions"]))
        self.target_net.load_state_dict(self.q_net.state_dict())

    def td_targets(self, rewards, next_obs, dones):
        with torch.no_grad():
            next_q = self.target_net(next_obs).max(dim=1).values
        return rewards + self.cfg["gamma"] * (1.0 - dones) * next_q

    def loss(self, batch):
        q_all = self.q_net(batch["obs"])
        q_taken = q_all[:, batch["actions"]]
        target = self.td_targets(batch["rewards"], batch["next_obs"], batch["dones"]).view(-1, 1)
        td_error = q_taken - target
        return td_error.pow(2).mean(), td_error


def sample_batch(cfg, gen):
    n = cfg["batch_size"]
    return {
        "obs": torch.randn(n, cfg["obs_dim"], generator=gen),
        "actions": torch.randint(0, cfg["n_actions"], (n,), generator=gen),
        "rewards": torch.randn(n, generator=gen),
        "next_obs": torch.randn(n, cfg["obs_dim"], generator=gen),
        "dones": (torch.rand(n, generator=gen) < 0.1).float(),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"obs_dim": 6, "n_actions": 3, "batch_size": 32, "gamma": 0.99}
    agent = Agent(cfg)
    batch = sample_batch(cfg, torch.Generator().manual_seed(1))
    loss, td_error = agent.loss(batch)
    print("td loss:", loss.item(), "td errors:", tuple(td_error.shape))
