import torch


class ReplayBuffer:
    """Memory-optimized buffer: next_state of slot i is stored as state of slot i + 1."""

    def __init__(self, capacity, state_dim, action_dim):
        self.capacity = capacity
        self.states = torch.zeros(capacity, state_dim)
        self.actions = torch.zeros(capacity, action_dim)
        self.rewards = torch.zeros(capacity)
        self.dones = torch.zeros(capacity, dtype=torch.bool)
        self.position = 0
        self.size = 0

    def add(self, state, action, reward, next_state, done):
        # next_state is not stored: it is the state written by the following add()
        self.states[self.position] = state
        self.actions[self.position] = action
        self.rewards[self.position] = reward
        self.dones[self.position] = done
        self.position = (self.position + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size, generator):
        idx = torch.randint(0, self.size, (batch_size,), generator=generator)
        next_idx = (idx + 1) % self.capacity
        return {
            "state": self.states[idx],
            "action": self.actions[idx],
            "reward": self.rewards[idx],
            "next_state": self.states[next_idx],
            "done": self.dones[idx],
        }


if __name__ == "__main__":
    torch.manual_seed(0)
    buffer = ReplayBuffer(capacity=1000, state_dim=6, action_dim=2)
    log = []
    state = torch.rand(6) + 0.5
    for step in range(40):
        action = torch.randn(2)
        next_state = torch.rand(6) + 0.5
        buffer.add(state, action, float(step), next_state, False)
        log.append((state.clone(), next_state.clone()))
        state = next_state

    batch = buffer.sample(256, torch.Generator().manual_seed(1))
    ref_next = torch.stack([log[int(r)][1] for r in batch["reward"].tolist()])
    zero_rows = int((batch["next_state"].abs().sum(-1) == 0).sum())
    print("next_state rows read from unwritten slots:", zero_rows, "of 256")
    print("max |next_state - logged next_state|:", (batch["next_state"] - ref_next).abs().max().item())
