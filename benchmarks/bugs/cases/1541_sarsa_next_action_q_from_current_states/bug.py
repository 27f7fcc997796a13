import torch
import torch.nn as nn


def build_net(spec, in_dim, out_dim):
    layers, last = [], in_dim
    for width in spec["hid_layers"]:
        layers += [nn.Linear(last, width), nn.SELU()]
        last = width
    layers.append(nn.Linear(last, out_dim))
    return nn.Sequential(*layers)


class SARSA:
    def __init__(self, algorithm_spec, net_spec, state_dim, action_dim):
        self.gamma = algorithm_spec["gamma"]
        self.net = build_net(net_spec, state_dim, action_dim)
        self.loss_fn = nn.MSELoss()

    def calc_q_loss(self, batch):
        states = batch["states"]
        next_states = batch["next_states"]
        q_preds = self.net(states)
        with torch.no_grad():
            next_q_preds = self.net(next_states)
        act_q_preds = q_preds.gather(-1, batch["actions"].long().unsqueeze(-1)).squeeze(-1)
        act_next_q_preds = q_preds.gather(-1, batch["next_actions"].long().unsqueeze(-1)).squeeze(-1)
        act_q_targets = batch["rewards"] + self.gamma * (1 - batch["dones"]) * act_next_q_preds
        return self.loss_fn(act_q_preds, act_q_targets.detach())


def collect_batch(env_spec, size, generator):
    return {
        "states": torch.randn(size, env_spec["state_dim"], generator=generator),
        "next_states": torch.randn(size, env_spec["state_dim"], generator=generator),
        "actions": torch.randint(0, env_spec["action_dim"], (size,), generator=generator).float(),
        "next_actions": torch.randint(0, env_spec["action_dim"], (size,), generator=generator).float(),
        "rewards": torch.rand(size, generator=generator),
        "dones": (torch.rand(size, generator=generator) < 0.2).float(),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    spec = {
        "algorithm": {"name": "SARSA", "gamma": 0.99},
        "net": {"hid_layers": [32, 32]},
        "env": {"state_dim": 4, "action_dim": 3},
        "batch_size": 16,
    }
    agent = SARSA(spec["algorithm"], spec["net"], spec["env"]["state_dim"], spec["env"]["action_dim"])
    batch = collect_batch(spec["env"], spec["batch_size"], torch.Generator().manual_seed(5))
    with torch.no_grad():
        loss = agent.calc_q_loss(batch)
        total = 0.0
        for i in range(spec["batch_size"]):
            q = agent.net(batch["states"][i])[int(batch["actions"][i])]
            q_next = agent.net(batch["next_states"][i])[int(batch["next_actions"][i])]
            target = batch["rewards"][i] + 0.99 * (1 - batch["dones"][i]) * q_next
            total += float((q - target) ** 2)
        ref = total / spec["batch_size"]
    print("SARSA loss:", round(loss.item(), 5))
    print("reference Q(s,a) vs r + gamma * Q(s',a'):", round(ref, 5))
