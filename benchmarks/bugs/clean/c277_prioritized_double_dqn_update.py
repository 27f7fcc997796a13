import numpy as np
import torch
import torch.nn as nn


class PrioritizedReplay:
    """Proportional prioritized replay.

    Buffers:
        obs, next_obs (Tensor of shape (capacity, obs_dim)), actions (LongTensor of shape (capacity,)),
        rewards, dones (Tensor of shape (capacity,)), priorities (Tensor of shape (capacity,)).
    """

    def __init__(self, capacity, obs_dim, alpha=0.6):
        self.capacity, self.alpha, self.size = capacity, alpha, 0
        self.obs = torch.zeros(capacity, obs_dim)
        self.next_obs = torch.zeros(capacity, obs_dim)
        self.actions = torch.zeros(capacity, dtype=torch.long)
        self.rewards = torch.zeros(capacity)
        self.dones = torch.zeros(capacity)
        self.priorities = torch.zeros(capacity)

    def add(self, obs, action, reward, next_obs, done):
        i = self.size % self.capacity
        self.obs[i], self.actions[i], self.rewards[i] = obs, action, reward
        self.next_obs[i], self.dones[i] = next_obs, done
        self.priorities[i] = self.priorities[: self.size].max() if self.size else 1.0
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size, beta, generator):
        """
        Returns:
            idx (LongTensor of shape (batch_size,)): distinct sampled slots.
            weights (Tensor of shape (batch_size,)): importance-sampling weights, max-normalised.
        """
        probs = self.priorities[: self.size] ** self.alpha
        probs = probs / probs.sum()
        idx = torch.multinomial(probs, batch_size, replacement=False, generator=generator)
        weights = (self.size * probs[idx]) ** (-beta)
        return idx, weights / weights.max()

    def update_priorities(self, idx, td_errors, eps=1e-3):
        """
        Args:
            idx (LongTensor of shape (batch_size,)): distinct slots returned by `sample`.
            td_errors (Tensor of shape (batch_size,)): new TD errors of those slots.
        """
        self.priorities[idx] = td_errors.abs() + eps


def double_dqn_loss(online, target, buffer, idx, weights, gamma):
    """
    Args:
        idx (LongTensor of shape (batch_size,)) and weights (Tensor of shape (batch_size,)) from `sample`.

    Returns:
        the weighted Huber loss (Tensor of shape ()) and the TD errors (Tensor of shape (batch_size,)).
    """
    obs, actions = buffer.obs[idx], buffer.actions[idx]
    q_sa = online(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        next_obs = buffer.next_obs[idx]
        best = online(next_obs).argmax(dim=1, keepdim=True)
        next_q = target(next_obs).gather(1, best).squeeze(1)
        td_target = buffer.rewards[idx] + gamma * (1.0 - buffer.dones[idx]) * next_q
    td_error = td_target - q_sa
    loss = (weights * nn.functional.smooth_l1_loss(q_sa, td_target, reduction="none")).mean()
    return loss, td_error.detach()


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    online, target = nn.Linear(3, 4), nn.Linear(3, 4)
    buffer = PrioritizedReplay(capacity=32, obs_dim=3)
    for _ in range(20):
        buffer.add(torch.tensor(rng.normal(size=3), dtype=torch.float32), int(rng.integers(4)), float(rng.normal()),
                   torch.tensor(rng.normal(size=3), dtype=torch.float32), float(rng.random() < 0.2))
    idx, weights = buffer.sample(8, beta=0.4, generator=torch.Generator().manual_seed(1))
    loss, td_error = double_dqn_loss(online, target, buffer, idx, weights, gamma=0.99)
    buffer.update_priorities(idx, td_error)

    total = 0.0
    with torch.no_grad():
        for j, i in enumerate(idx.tolist()):
            q = online(buffer.obs[i])[buffer.actions[i]].item()
            a_star = int(online(buffer.next_obs[i]).argmax())
            y = buffer.rewards[i].item() + 0.99 * (1 - buffer.dones[i].item()) * target(buffer.next_obs[i])[a_star].item()
            d = y - q
            assert abs(td_error[j].item() - d) < 1e-5
            assert abs(buffer.priorities[i].item() - (abs(d) + 1e-3)) < 1e-5
            huber = 0.5 * d * d if abs(d) < 1 else abs(d) - 0.5
            total += weights[j].item() * huber
    assert abs(loss.item() - total / 8) < 1e-5
    print("ok")
