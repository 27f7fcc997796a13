import torch


class PrioritizedReplay:
    """Proportional prioritized replay (Schaul et al. 2016).

    Attributes:
        states (Tensor): shape (capacity, obs_dim).
        priorities (Tensor): shape (capacity, 1), one priority per stored transition.
    """

    def __init__(self, capacity, obs_dim, alpha=0.6):
        self.states = torch.zeros(capacity, obs_dim)
        self.priorities = torch.zeros(capacity, 1)
        self.alpha = alpha
        self.size = 0

    def add(self, state):
        i = self.size
        self.states[i] = state
        self.priorities[i] = self.priorities.max() if self.size else 1.0
        self.size += 1

    def sample(self, k, generator=None):
        """Returns (indices (k,), states (k, obs_dim), weights (k,))."""
        p = self.priorities[: self.size, 0] ** self.alpha
        idx = torch.multinomial(p / p.sum(), k, replacement=False, generator=generator)
        w = (self.size * p[idx] / p.sum()) ** -0.4
        return idx, self.states[idx], w / w.max()

    def update_priorities(self, idx, td_errors):
        """Args:
            idx (LongTensor): shape (k,), sampled slots.
            td_errors (Tensor): shape (k,), TD errors of those transitions.
        """
        new_p = td_errors.abs() + 1e-3
        self.priorities.index_copy_(0, idx, new_p)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    buf = PrioritizedReplay(capacity=16, obs_dim=3)
    for _ in range(10):
        buf.add(torch.randn(3, generator=g))
    idx, states, weights = buf.sample(4, generator=g)
    td = states.sum(dim=1) - 0.5
    buf.update_priorities(idx, td)
    print("priorities:", buf.priorities[: buf.size, 0].tolist())
