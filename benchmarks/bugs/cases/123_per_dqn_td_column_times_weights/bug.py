import torch
import torch.nn as nn


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, n_actions))

    def forward(self, obs):
        return self.body(obs)


def per_dqn_loss(online, target, batch, gamma=0.99):
    q = online(batch["obs"]).gather(1, batch["act"].unsqueeze(1))
    with torch.no_grad():
        next_q = target(batch["obs_next"]).max(dim=1).values
        returns = batch["rew"] + gamma * (1.0 - batch["done"]) * next_q
    td = q - returns
    loss = (td.pow(2) * batch["weight"]).mean()
    new_priorities = td.detach().abs()
    return loss, new_priorities


if __name__ == "__main__":
    torch.manual_seed(0)
    online, target = QNetwork(4, 3), QNetwork(4, 3)
    batch = {
        "obs": torch.randn(32, 4),
        "act": torch.randint(0, 3, (32,)),
        "rew": torch.randn(32),
        "obs_next": torch.randn(32, 4),
        "done": (torch.rand(32) < 0.1).float(),
        "weight": torch.rand(32) + 0.5,
    }
    loss, priorities = per_dqn_loss(online, target, batch)
    with torch.no_grad():
        q = online(batch["obs"])[torch.arange(32), batch["act"]]
        ret = batch["rew"] + 0.99 * (1 - batch["done"]) * target(batch["obs_next"]).max(1).values
        ref = ((q - ret).pow(2) * batch["weight"]).mean()
    print("loss:", loss.item(), "reference:", ref.item(), "priorities shape:", tuple(priorities.shape))
