import torch


class MultiAgentPrioritizedBuffer:
    """One replay slot holds a joint transition; every agent keeps its own priority for it."""

    def __init__(self, capacity, n_agents, obs_dim, alpha=0.6, eps=1e-3):
        self.capacity, self.n_agents, self.alpha, self.eps = capacity, n_agents, alpha, eps
        self.obs = torch.zeros(capacity, n_agents, obs_dim)  # [slots, agents, obs]
        self.priorities = torch.ones(capacity, n_agents)  # [slots, agents]
        self.size = 0

    def add(self, obs):
        # obs: [agents, obs]
        self.obs[self.size % self.capacity] = obs
        self.size += 1

    def sample(self, generator):
        # one slot per agent, drawn from that agent's own priorities
        probs = self.priorities[: self.size].pow(self.alpha)  # [size, agents]
        probs = probs / probs.sum(0, keepdim=True)
        idx = torch.multinomial(probs.t(), 1, generator=generator).squeeze(1)  # [agents]
        weights = (self.size * probs.gather(0, idx.unsqueeze(0))).pow(-0.4)  # [1, agents]
        return idx, weights / weights.max()

    def update_priorities(self, idx, td_errors):
        # idx: [agents] slot sampled by each agent, td_errors: [agents]
        new_p = td_errors.abs() + self.eps  # [agents]
        self.priorities.scatter_(0, idx.unsqueeze(0), new_p)


def learner_step(buffer, critics, generator):
    idx, weights = buffer.sample(generator)
    obs = buffer.obs[idx, torch.arange(buffer.n_agents)]  # [agents, obs]
    td = (obs * critics).sum(-1) - 1.0  # [agents]
    loss = (weights.squeeze(0) * td.pow(2)).mean()
    buffer.update_priorities(idx, td.detach())
    return loss, idx, td


if __name__ == "__main__":
    torch.manual_seed(0)
    buffer = MultiAgentPrioritizedBuffer(capacity=16, n_agents=3, obs_dim=4)
    for _ in range(10):
        buffer.add(torch.randn(3, 4))
    critics = torch.randn(3, 4)
    before = buffer.priorities.clone()
    loss, idx, td = learner_step(buffer, critics, torch.Generator().manual_seed(1))
    print(loss.item(), idx.tolist())
