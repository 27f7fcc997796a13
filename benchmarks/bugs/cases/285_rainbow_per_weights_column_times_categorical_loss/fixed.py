from typing import Dict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Network(nn.Module):
    def __init__(self, in_dim: int, out_dim: int, atom_size: int, support: torch.Tensor):
        """Initialization."""
        super().__init__()
        self.support, self.out_dim, self.atom_size = support, out_dim, atom_size
        self.layers = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, out_dim * atom_size))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Q values of shape (batch_size, out_dim)."""
        return torch.sum(self.dist(x) * self.support, dim=2)

    def dist(self, x: torch.Tensor) -> torch.Tensor:
        """Distribution over the atoms, of shape (batch_size, out_dim, atom_size)."""
        q_atoms = self.layers(x).view(-1, self.out_dim, self.atom_size)
        return F.softmax(q_atoms, dim=-1).clamp(min=1e-3)


class DQNAgent:
    """Rainbow agent (categorical DQN + prioritized replay part).

    Attribute:
        dqn, dqn_target (Network): online and target networks
        v_min, v_max (float): range of the support; atom_size (int): number of atoms
        prior_eps (float): guarantees every transition can be sampled
    """

    def __init__(self, obs_dim, action_dim, gamma=0.99, v_min=-10.0, v_max=10.0, atom_size=11, prior_eps=1e-6):
        self.gamma, self.v_min, self.v_max, self.atom_size, self.prior_eps = gamma, v_min, v_max, atom_size, prior_eps
        self.support = torch.linspace(v_min, v_max, atom_size)
        self.dqn = Network(obs_dim, action_dim, atom_size, self.support)
        self.dqn_target = Network(obs_dim, action_dim, atom_size, self.support)
        self.dqn_target.load_state_dict(self.dqn.state_dict())
        self.optimizer = torch.optim.Adam(self.dqn.parameters(), lr=1e-3)

    def update_model(self, samples: Dict[str, np.ndarray]):
        """Update the model by gradient descent.

        Args:
            samples: obs, next_obs (batch_size, obs_dim); acts, rews, done (batch_size,);
                weights (batch_size,) importance-sampling weights; indices (batch_size,) buffer slots.

        Returns:
            the loss value and the new priorities (batch_size,)
        """
        weights = torch.FloatTensor(samples["weights"])
        # PER: importance sampling before average
        elementwise_loss = self._compute_dqn_loss(samples, self.gamma)
        loss = torch.mean(elementwise_loss * weights)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        new_priorities = elementwise_loss.detach().cpu().numpy() + self.prior_eps
        return loss.item(), new_priorities

    def _compute_dqn_loss(self, samples: Dict[str, np.ndarray], gamma: float) -> torch.Tensor:
        """Return the categorical DQN loss of every transition, a tensor of shape (batch_size,)."""
        state = torch.FloatTensor(samples["obs"])
        next_state = torch.FloatTensor(samples["next_obs"])
        action = torch.LongTensor(samples["acts"])
        reward = torch.FloatTensor(samples["rews"].reshape(-1, 1))
        done = torch.FloatTensor(samples["done"].reshape(-1, 1))
        delta_z = float(self.v_max - self.v_min) / (self.atom_size - 1)
        batch_size = len(action)
        with torch.no_grad():
            next_action = self.dqn(next_state).argmax(1)
            next_dist = self.dqn_target.dist(next_state)[range(batch_size), next_action]
            t_z = (reward + (1 - done) * gamma * self.support).clamp(min=self.v_min, max=self.v_max)
            b = (t_z - self.v_min) / delta_z
            l = b.floor().long()
            u = b.floor().long() + 1
            offset = (torch.arange(batch_size) * self.atom_size).long().unsqueeze(1).expand(batch_size, self.atom_size)
            proj_dist = torch.zeros(next_dist.size())
            proj_dist.view(-1).index_add_(0, (l + offset).view(-1), (next_dist * (u.float() - b)).view(-1))
            proj_dist.view(-1).index_add_(
                0, (u.clamp(max=self.atom_size - 1) + offset).view(-1), (next_dist * (b - l.float())).view(-1)
            )
        dist = self.dqn.dist(state)
        log_p = torch.log(dist[range(batch_size), action])
        return -(proj_dist * log_p).sum(1)


def sample_batch(buffer, batch_size, beta, rng):
    probs = buffer["priorities"] / buffer["priorities"].sum()
    indices = rng.choice(len(probs), batch_size, p=probs)
    weights = (len(probs) * probs[indices]) ** (-beta)
    batch = {k: v[indices] for k, v in buffer.items() if k != "priorities"}
    return dict(batch, weights=(weights / weights.max()).astype(np.float32), indices=indices)


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    buffer = {
        "obs": rng.normal(size=(32, 4)).astype(np.float32), "next_obs": rng.normal(size=(32, 4)).astype(np.float32),
        "acts": rng.integers(0, 2, 32), "rews": rng.normal(size=32).astype(np.float32),
        "done": (rng.random(32) < 0.1).astype(np.float32), "priorities": rng.random(32) + 0.1,
    }
    agent = DQNAgent(obs_dim=4, action_dim=2)
    samples = sample_batch(buffer, 8, beta=0.6, rng=rng)
    with torch.no_grad():
        per_sample = agent._compute_dqn_loss(samples, agent.gamma).tolist()
    expected = sum(w * l for w, l in zip(samples["weights"].tolist(), per_sample)) / len(per_sample)
    loss, priorities = agent.update_model(samples)
    print("loss:", round(loss, 4), "importance-weighted mean of the per-transition losses:", round(expected, 4))
    assert abs(loss - expected) < 1e-5 and priorities.shape == (8,)
    print("ok")
