import copy

import torch
import torch.nn as nn


class QNetwork(nn.Module):
    def __init__(self, state_dim, action_dim, hidden_size=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim, hidden_size), nn.ReLU(), nn.Linear(hidden_size, action_dim))

    def forward(self, x):
        return self.net(x)


class DQN:
    """DQN agent with optional double Q-learning."""

    def __init__(self, state_dim, action_dim, batch_size=32, lr=1e-3, gamma=0.99, tau=1e-3, double=True):
        self.state_dim = state_dim
        self.action_dim = action_dim
        self.batch_size = batch_size
        self.gamma = gamma
        self.tau = tau
        self.double = double
        self.actor = QNetwork(state_dim[0], action_dim)
        self.actor_target = copy.deepcopy(self.actor)
        self.optimizer = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.criterion = nn.MSELoss()

    def learn(self, experiences):
        """Updates agent network parameters to learn from experiences.

        :param experiences: List of batched states, actions, rewards, next_states, dones in that order.
        """
        states, actions, rewards, next_states, dones = experiences

        if self.double:  # Double Q-learning
            q_idx = self.actor(next_states).argmax(dim=1).unsqueeze(1)
            q_target = self.actor_target(next_states).gather(dim=1, index=q_idx).detach()
        else:
            q_target = self.actor_target(next_states).detach().max(axis=1)[0].unsqueeze(1)

        # target, if terminal then y_j = rewards
        y_j = rewards + self.gamma * q_target * (1 - dones)
        q_eval = self.actor(states).gather(1, actions.long())

        loss = self.criterion(q_eval, y_j)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.soft_update()
        return loss.item()

    def soft_update(self):
        for eval_param, target_param in zip(self.actor.parameters(), self.actor_target.parameters()):
            target_param.data.copy_(self.tau * eval_param.data + (1.0 - self.tau) * target_param.data)


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = DQN(state_dim=[8], action_dim=4)
    with torch.no_grad():  # the target net lags behind the online net
        for p in agent.actor_target.parameters():
            p.add_(0.3 * torch.randn_like(p))

    batch = 32
    states = torch.randn(batch, 8)
    actions = torch.randint(0, 4, (batch, 1))
    rewards = torch.randn(batch, 1)
    next_states = torch.randn(batch, 8)
    dones = (torch.rand(batch, 1) < 0.1).float()

    seen = {}
    mse = agent.criterion
    agent.criterion = lambda q, y: (seen.setdefault("y", y.detach().clone()), mse(q, y))[1]

    online_before = copy.deepcopy(agent.actor)
    target_before = copy.deepcopy(agent.actor_target)
    agent.learn((states, actions, rewards, next_states, dones))

    # reference: double DQN target computed sample by sample
    with torch.no_grad():
        q_online = online_before(next_states)
        q_tgt = target_before(next_states)
    for i in range(batch):
        a_star = max(range(4), key=lambda a: q_online[i, a].item())
        y = rewards[i, 0].item() + agent.gamma * q_tgt[i, a_star].item() * (1 - dones[i, 0].item())
        assert abs(seen["y"][i, 0].item() - y) < 1e-5, (i, seen["y"][i, 0].item(), y)
    print("ok")
