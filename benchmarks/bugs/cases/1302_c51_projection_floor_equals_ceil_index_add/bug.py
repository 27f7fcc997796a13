import torch


class C51Projection:
    """Categorical (C51) Bellman target projected back onto a fixed support."""

    def __init__(self, qmin: float, qmax: float, num_atoms: int, gamma: float):
        self.qmin, self.qmax = qmin, qmax
        self.num_atoms = num_atoms
        self.gamma = gamma
        self.support = torch.linspace(qmin, qmax, num_atoms)
        self.scale_support = (qmax - qmin) / (num_atoms - 1.0)

    @torch.no_grad()
    def project(self, next_dist, rewards, not_terminal):
        # next_dist: (batch_size, num_atoms); rewards, not_terminal: (batch_size, 1)
        target_Q = rewards + self.gamma * not_terminal * self.support
        target_Q = target_Q.clamp(self.qmin, self.qmax)

        # rescale to indices [0, 1, ..., N-1]
        b = (target_Q - self.qmin) / self.scale_support
        lower = b.floor()
        upper = b.ceil()

        # index_add_ only takes a 1-D index, so operate on the flattened tensors
        offset = self.num_atoms * torch.arange(rewards.shape[0]).reshape(-1, 1).repeat(1, self.num_atoms)
        m = torch.zeros_like(next_dist)
        m.reshape(-1).index_add_(0, (lower.long() + offset).reshape(-1), (next_dist * (upper - b)).reshape(-1))
        m.reshape(-1).index_add_(0, (upper.long() + offset).reshape(-1), (next_dist * (b - lower)).reshape(-1))
        return m


if __name__ == "__main__":
    torch.manual_seed(0)
    proj = C51Projection(qmin=-10.0, qmax=10.0, num_atoms=51, gamma=0.99)
    next_dist = torch.softmax(torch.randn(4, 51), dim=-1)
    rewards = torch.tensor([[0.0], [1.0], [-10.0], [0.5]])
    not_terminal = torch.tensor([[0.0], [1.0], [0.0], [1.0]])
    m = proj.project(next_dist, rewards, not_terminal)
    print("target mass per sample:", [round(v, 4) for v in m.sum(-1).tolist()])
