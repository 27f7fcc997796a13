import torch
from torch import nn


def chosen_action_value(values, action):
    return values.gather(-1, action.unsqueeze(-1))


class AgentQNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs):
        return self.net(obs)


def td_loss(qnet, target_net, batch, gamma=0.99):
    q = qnet(batch["obs"])
    q_taken = chosen_action_value(q, batch["action"])
    with torch.no_grad():
        next_q = target_net(batch["next_obs"]).max(dim=-1, keepdim=True).values
        target = batch["reward"] + gamma * (1 - batch["done"]) * next_q
    return (q_taken - target).pow(2).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    qnet, target_net = AgentQNet(10, 3), AgentQNet(10, 3)
    target_net.load_state_dict(qnet.state_dict())
    batch = {
        "obs": torch.randn(32, 4, 10),
        "action": torch.randint(0, 3, (32, 4)),
        "reward": torch.randn(32, 4, 1),
        "next_obs": torch.randn(32, 4, 10),
        "done": torch.zeros(32, 4, 1),
    }
    q = qnet(batch["obs"])
    q_taken = chosen_action_value(q, batch["action"])
    assert q_taken.shape == (32, 4, 1)
    for b in range(32):
        for a in range(4):
            assert q_taken[b, a, 0].item() == q[b, a, int(batch["action"][b, a])].item()
    loss = td_loss(qnet, target_net, batch)
    loss.backward()
    print("ok")
