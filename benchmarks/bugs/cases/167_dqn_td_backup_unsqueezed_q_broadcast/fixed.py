import copy

import torch
import torch.nn as nn


class QFunction(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=(64, 64)):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(obs_dim, hidden[0]), nn.ReLU(),
            nn.Linear(hidden[0], hidden[1]), nn.ReLU(),
            nn.Linear(hidden[1], n_actions),
        )

    def forward(self, obs):
        return self.body(obs)


def compute_loss_q(q_net, q_targ, batch, gamma):
    obs, act, rew, obs2, done = batch
    q = q_net(obs).gather(1, act.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        backup = rew + gamma * (1 - done) * q_targ(obs2).max(dim=1).values
    return ((q - backup) ** 2).mean()


def update(q_net, q_targ, optimizer, batch, gamma=0.99):
    optimizer.zero_grad()
    loss = compute_loss_q(q_net, q_targ, batch, gamma)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    q_net = QFunction(obs_dim=8, n_actions=4)
    q_targ = copy.deepcopy(q_net)
    optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    batch = (
        torch.randn(64, 8),
        torch.randint(0, 4, (64,)),
        torch.randn(64),
        torch.randn(64, 8),
        (torch.rand(64) < 0.1).float(),
    )
    loss = compute_loss_q(q_net, q_targ, batch, 0.99)
    obs, act, rew, obs2, done = batch
    with torch.no_grad():
        q_ref = q_net(obs)[torch.arange(64), act]
        backup_ref = rew + 0.99 * (1 - done) * q_targ(obs2).max(dim=1).values
    assert torch.allclose(loss, ((q_ref - backup_ref) ** 2).mean())
    update(q_net, q_targ, optimizer, batch)
    print("ok")
