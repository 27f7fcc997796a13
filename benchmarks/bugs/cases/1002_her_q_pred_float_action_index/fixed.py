import numpy as np
import torch
import torch.nn as nn
from jaxtyping import Float, Int


class GoalReplayMemory:
    def __init__(self, size, state_dim, goal_dim):
        self.states = np.zeros((size, state_dim), dtype=np.float32)
        self.goals = np.zeros((size, goal_dim), dtype=np.float32)
        self.actions = np.zeros(size, dtype=np.float32)
        self.ptr = 0

    def store(self, s, g, a):
        self.states[self.ptr], self.goals[self.ptr], self.actions[self.ptr] = s, g, a
        self.ptr += 1

    def sample(self, batch_size):
        idx = np.arange(batch_size)
        return (torch.tensor(self.states[idx]), torch.tensor(self.goals[idx]),
                torch.tensor(self.actions[idx]))


class GoalQNet(nn.Module):
    def __init__(self, state_dim, goal_dim, n_actions):
        super().__init__()
        self.fc = nn.Linear(state_dim + goal_dim, n_actions)

    def forward(self, sg: Float[torch.Tensor, "batch in_dim"]) -> Float[torch.Tensor, "batch n_actions"]:
        return self.fc(sg)


def predicted_q(net: GoalQNet, states: Float[torch.Tensor, "batch s"], goals: Float[torch.Tensor, "batch g"],
                actions: Int[torch.Tensor, "batch"]) -> Float[torch.Tensor, "batch"]:
    batches = torch.arange(states.shape[0])
    q_all = net(torch.cat([states, goals], dim=1))
    return q_all[batches, actions.long()]


if __name__ == "__main__":
    torch.manual_seed(0)
    mem = GoalReplayMemory(32, 6, 2)
    for t in range(8):
        mem.store(np.random.randn(6), np.random.randn(2), t % 4)
    s, g, a = mem.sample(8)
    net = GoalQNet(6, 2, 4)
    out = predicted_q(net, s, g, a)
    q_all = net(torch.cat([s, g], dim=1))
    for i in range(8):
        assert torch.allclose(out[i], q_all[i, int(a[i])])
    print("ok")
