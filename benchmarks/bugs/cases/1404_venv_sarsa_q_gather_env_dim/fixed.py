import torch
import torch.nn as nn

SPEC = {
    "env": {"name": "LunarLander", "num_envs": 4, "state_dim": 8, "action_dim": 4},
    "net": {"hid_layers": [32, 32], "hid_layers_activation": "relu"},
    "algorithm": {"gamma": 0.99, "training_frequency": 6},
}


def build_mlp(in_dim, hid_layers, out_dim, activation):
    act = {"relu": nn.ReLU, "tanh": nn.Tanh}[activation]
    layers, prev = [], in_dim
    for width in hid_layers:
        layers += [nn.Linear(prev, width), act()]
        prev = width
    layers.append(nn.Linear(prev, out_dim))
    return nn.Sequential(*layers)


class SARSA:
    def __init__(self, spec):
        env, net = spec["env"], spec["net"]
        self.gamma = spec["algorithm"]["gamma"]
        self.net = build_mlp(env["state_dim"], net["hid_layers"], env["action_dim"], net["hid_layers_activation"])
        self.loss_fn = nn.SmoothL1Loss()

    def calc_q_loss(self, batch):
        q_preds = self.net(batch["states"])
        act_q_preds = q_preds.gather(-1, batch["actions"].long().unsqueeze(-1)).squeeze(-1)
        next_q_preds = self.net(batch["next_states"])
        act_next_q_preds = next_q_preds.gather(-1, batch["next_actions"].long().unsqueeze(-1)).squeeze(-1)
        act_q_targets = batch["rewards"] + self.gamma * (1 - batch["dones"]) * act_next_q_preds
        return self.loss_fn(act_q_preds, act_q_targets.detach()), act_q_preds


def sample_venv_batch(spec, generator):
    """On-policy batch from a vectorized env: every field is stacked over time then envs."""
    env = spec["env"]
    steps, n = spec["algorithm"]["training_frequency"], env["num_envs"]
    return {
        "states": torch.randn(steps, n, env["state_dim"], generator=generator),
        "next_states": torch.randn(steps, n, env["state_dim"], generator=generator),
        "actions": torch.randint(0, env["action_dim"], (steps, n), generator=generator).float(),
        "next_actions": torch.randint(0, env["action_dim"], (steps, n), generator=generator).float(),
        "rewards": torch.randn(steps, n, generator=generator),
        "dones": (torch.rand(steps, n, generator=generator) < 0.1).float(),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    agent = SARSA(SPEC)
    batch = sample_venv_batch(SPEC, g)
    loss, act_q_preds = agent.calc_q_loss(batch)
    with torch.no_grad():
        q = agent.net(batch["states"])
        chosen = torch.tensor([[q[t, e, int(batch["actions"][t, e])].item() for e in range(q.shape[1])]
                               for t in range(q.shape[0])])
        q_next = agent.net(batch["next_states"])
        chosen_next = torch.tensor([[q_next[t, e, int(batch["next_actions"][t, e])].item() for e in range(q.shape[1])]
                                    for t in range(q.shape[0])])
        target = batch["rewards"] + 0.99 * (1 - batch["dones"]) * chosen_next
        ref_loss = nn.SmoothL1Loss()(chosen, target)
    assert act_q_preds.shape == (6, 4)
    assert torch.allclose(act_q_preds, chosen, atol=1e-6)
    assert torch.allclose(loss, ref_loss, atol=1e-6)
    print("ok")
