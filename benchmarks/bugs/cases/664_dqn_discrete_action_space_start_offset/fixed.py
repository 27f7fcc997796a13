from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class DiscreteSpace:
    n: int
    start: int = 0

    def sample(self, gen, size):
        return torch.randint(self.start, self.start + self.n, (size,), generator=gen)


def make_policy(obs_dim, space, hidden=16):
    return nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, space.n))


def collect(space, obs_dim, steps, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return {
        "obs": torch.randn(steps, obs_dim, generator=gen),
        "next_obs": torch.randn(steps, obs_dim, generator=gen),
        "actions": space.sample(gen, steps),
        "rewards": torch.rand(steps, generator=gen),
        "dones": torch.zeros(steps),
    }


def dqn_loss(q_net, target_net, batch, gamma, action_start=0):
    with torch.no_grad():
        next_q = target_net(batch["next_obs"]).max(dim=1).values
        target = batch["rewards"] + gamma * (1 - batch["dones"]) * next_q
    current_q = q_net(batch["obs"]).gather(1, (batch["actions"].long() - action_start).unsqueeze(1)).squeeze(1)
    return F.smooth_l1_loss(current_q, target), current_q


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"obs_dim": 4, "action_space": DiscreteSpace(n=2, start=1), "gamma": 0.99, "steps": 32}
    q_net = make_policy(config["obs_dim"], config["action_space"])
    target_net = make_policy(config["obs_dim"], config["action_space"])
    target_net.load_state_dict(q_net.state_dict())
    batch = collect(config["action_space"], config["obs_dim"], config["steps"])
    space = config["action_space"]
    loss, current_q = dqn_loss(q_net, target_net, batch, config["gamma"], action_start=space.start)
    with torch.no_grad():
        q_all = q_net(batch["obs"])
    for i in range(config["steps"]):
        a = int(batch["actions"][i])
        assert space.start <= a < space.start + space.n
        assert torch.allclose(current_q[i], q_all[i, a - space.start])
    print("ok")
