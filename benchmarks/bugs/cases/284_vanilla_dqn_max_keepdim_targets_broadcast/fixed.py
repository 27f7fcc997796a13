import torch
import torch.nn as nn


class MLPNet(nn.Module):
    def __init__(self, net_spec, in_dim, out_dim):
        super().__init__()
        dims = [in_dim] + net_spec["hid_layers"]
        layers = []
        for i, o in zip(dims, dims[1:]):
            layers += [nn.Linear(i, o), getattr(nn, net_spec["hid_layers_activation"])()]
        self.model = nn.Sequential(*layers, nn.Linear(dims[-1], out_dim))
        self.loss_fn = getattr(nn, net_spec["loss_spec"]["name"])()

    def forward(self, x):
        return self.model(x)


class VanillaDQN:
    def __init__(self, algorithm_spec, net_spec, state_dim, action_dim):
        self.gamma = algorithm_spec["gamma"]
        self.net = MLPNet(net_spec, state_dim, action_dim)
        self.optim = torch.optim.Adam(self.net.parameters(), lr=net_spec["optim_spec"]["lr"])

    def calc_q_loss(self, batch):
        """Compute the Q value loss using predicted and target Q values from the appropriate networks"""
        states = batch["states"]
        next_states = batch["next_states"]
        q_preds = self.net(states)
        with torch.no_grad():
            next_q_preds = self.net(next_states)
        act_q_preds = q_preds.gather(-1, batch["actions"].long().unsqueeze(-1)).squeeze(-1)
        # Bellman equation: compute max_q_targets using reward and max estimated Q values (0 if no next_state)
        max_next_q_preds, _ = next_q_preds.max(dim=-1, keepdim=False)
        max_q_targets = batch["rewards"] + self.gamma * (1 - batch["dones"]) * max_next_q_preds
        q_loss = self.net.loss_fn(act_q_preds, max_q_targets)
        return q_loss

    def train(self, batch):
        loss = self.calc_q_loss(batch)
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        return loss.item()


def sample_batch(memory, batch_size, generator):
    idxs = torch.randint(len(memory["rewards"]), (batch_size,), generator=generator)
    return {k: v[idxs] for k, v in memory.items()}


if __name__ == "__main__":
    torch.manual_seed(0)
    spec = {
        "algorithm": {"name": "VanillaDQN", "gamma": 0.99},
        "net": {"hid_layers": [16], "hid_layers_activation": "ReLU", "loss_spec": {"name": "MSELoss"}, "optim_spec": {"lr": 0.01}},
    }
    memory = {
        "states": torch.randn(64, 4), "next_states": torch.randn(64, 4), "actions": torch.randint(0, 2, (64,)).float(),
        "rewards": torch.randn(64), "dones": (torch.rand(64) < 0.1).float(),
    }
    agent = VanillaDQN(spec["algorithm"], spec["net"], state_dim=4, action_dim=2)
    batch = sample_batch(memory, 8, torch.Generator().manual_seed(1))
    loss = agent.calc_q_loss(batch).item()
    with torch.no_grad():
        q, nq = agent.net(batch["states"]), agent.net(batch["next_states"])
    expected = sum(
        (q[i, int(batch["actions"][i])] - (batch["rewards"][i] + 0.99 * (1 - batch["dones"][i]) * nq[i].max())).item() ** 2
        for i in range(8)
    ) / 8
    print("q loss:", round(loss, 4), "per-transition TD loss:", round(expected, 4))
    assert abs(loss - expected) < 1e-5
    print("ok")
