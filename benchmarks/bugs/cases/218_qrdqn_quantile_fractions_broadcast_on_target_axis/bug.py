import torch
import torch.nn as nn


def calculate_huber_loss(td_errors, k=1.0):
    """
    Args:
        td_errors: tensor of any shape.

    Returns:
        elementwise Huber loss, same shape as td_errors.
    """
    return torch.where(td_errors.abs() <= k, 0.5 * td_errors.pow(2), k * (td_errors.abs() - 0.5 * k))


class QRDQN(nn.Module):
    def __init__(self, state_size, action_size, n_quantiles, hidden=32):
        super().__init__()
        self.action_size = action_size
        self.N = n_quantiles
        self.net = nn.Sequential(nn.Linear(state_size, hidden), nn.ReLU(), nn.Linear(hidden, action_size * n_quantiles))

    def forward(self, state):
        """
        Args:
            state: float tensor of shape (batch, state_size).

        Returns:
            quantiles: float tensor of shape (batch, N, action_size).
        """
        return self.net(state).view(state.shape[0], self.N, self.action_size)


class Agent:
    def __init__(self, state_size, action_size, n_quantiles=8, gamma=0.99):
        self.qnetwork_local = QRDQN(state_size, action_size, n_quantiles)
        self.qnetwork_target = QRDQN(state_size, action_size, n_quantiles)
        self.qnetwork_target.load_state_dict(self.qnetwork_local.state_dict())
        self.N = n_quantiles
        self.GAMMA = gamma
        self.tau = torch.FloatTensor([(2 * i + 1) / (2.0 * n_quantiles) for i in range(n_quantiles)])

    def quantile_loss(self, experiences):
        """
        Args:
            experiences: tuple (states (batch, state_size), actions (batch, 1), rewards (batch, 1),
                next_states (batch, state_size), dones (batch, 1)).

        Returns:
            scalar quantile Huber loss.
        """
        states, actions, rewards, next_states, dones = experiences
        batch_size = states.shape[0]
        Q_targets_next = self.qnetwork_target(next_states).detach()
        action_indx = torch.argmax(Q_targets_next.mean(dim=1), dim=1, keepdim=True)
        Q_targets_next = Q_targets_next.gather(2, action_indx.unsqueeze(-1).expand(batch_size, self.N, 1)).transpose(1, 2)
        Q_targets = rewards.unsqueeze(-1) + self.GAMMA * Q_targets_next * (1.0 - dones.unsqueeze(-1))
        Q_expected = self.qnetwork_local(states).gather(2, actions.unsqueeze(-1).expand(batch_size, self.N, 1))

        td_error = Q_targets - Q_expected
        huber_l = calculate_huber_loss(td_error, 1.0)
        quantil_l = abs(self.tau - (td_error.detach() < 0).float()) * huber_l / 1.0
        return quantil_l.sum(dim=1).mean(dim=1).mean()


def reference_loss(agent, experiences):
    states, actions, rewards, next_states, dones = experiences
    q_next = agent.qnetwork_target(next_states)
    q_cur = agent.qnetwork_local(states)
    total = 0.0
    for b in range(states.shape[0]):
        means = [sum(q_next[b, i, a].item() for i in range(agent.N)) for a in range(q_next.shape[2])]
        best = max(range(len(means)), key=lambda a: means[a])
        targets = [rewards[b, 0].item() + agent.GAMMA * q_next[b, j, best].item() * (1 - dones[b, 0].item())
                   for j in range(agent.N)]
        per_sample = 0.0
        for i in range(agent.N):
            theta = q_cur[b, i, actions[b, 0].item()].item()
            tau_i = (2 * i + 1) / (2.0 * agent.N)
            for j in range(agent.N):
                u = targets[j] - theta
                huber = 0.5 * u * u if abs(u) <= 1.0 else abs(u) - 0.5
                per_sample += abs(tau_i - (1.0 if u < 0 else 0.0)) * huber / agent.N
        total += per_sample
    return total / states.shape[0]


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = Agent(state_size=4, action_size=3)
    experiences = (
        torch.randn(5, 4),
        torch.randint(0, 3, (5, 1)),
        torch.randn(5, 1),
        torch.randn(5, 4),
        torch.zeros(5, 1),
    )
    with torch.no_grad():
        loss = agent.quantile_loss(experiences)
        expected = reference_loss(agent, experiences)
    print("quantile loss:", round(loss.item(), 5), "quantile regression loss with tau of the predicted quantile:", round(expected, 5))
