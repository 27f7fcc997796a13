import torch


class CountBonus:
    """Count-based exploration bonus beta / sqrt(N(s)) over a discrete grid."""

    def __init__(self, num_states, beta=0.5):
        self.counts = torch.zeros(num_states)
        self.beta = beta

    def update(self, states):
        self.counts.index_add_(0, states, torch.ones(states.shape[0]))

    def bonus(self, states):
        return self.beta / torch.sqrt(self.counts[states].clamp(min=1.0))


def rollout_states(num_envs, steps, num_states, generator):
    # agents stay near their start cell, so cells repeat within a step batch
    start = torch.randint(0, num_states, (num_envs,), generator=generator)
    moves = torch.randint(-1, 2, (steps, num_envs), generator=generator)
    return (start + moves.cumsum(0)).clamp(0, num_states - 1)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    explorer = CountBonus(num_states=16)
    trajectory = rollout_states(num_envs=32, steps=10, num_states=16, generator=g)
    for states in trajectory:
        explorer.update(states)
    ref = [0] * 16
    for row in trajectory.tolist():
        for s in row:
            ref[s] += 1
    assert explorer.counts.tolist() == [float(c) for c in ref]
    last = trajectory[-1].tolist()
    ref_bonus = [0.5 / max(ref[s], 1) ** 0.5 for s in last]
    assert torch.allclose(explorer.bonus(trajectory[-1]), torch.tensor(ref_bonus))
    print("ok")
