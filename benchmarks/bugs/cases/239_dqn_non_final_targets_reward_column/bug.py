import random
from collections import namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F

Transition = namedtuple("Transition", ("state", "action", "reward", "next_state", "done"))


class ReplayMemory:
    def __init__(self, capacity):
        self.capacity = capacity
        self.memory = []

    def put(self, *args):
        if len(self.memory) >= self.capacity:
            self.memory.pop(0)
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        """
        Returns:
            states (torch.FloatTensor of shape (batch_size, state_dim))
            actions (torch.LongTensor of shape (batch_size, 1))
            rewards (torch.FloatTensor of shape (batch_size, 1))
            next_states (torch.FloatTensor of shape (batch_size, state_dim))
            dones (torch.BoolTensor of shape (batch_size,))
        """
        batch = Transition(*zip(*random.sample(self.memory, batch_size)))
        return (torch.stack(batch.state), torch.tensor(batch.action).view(-1, 1),
                torch.tensor(batch.reward).view(-1, 1), torch.stack(batch.next_state), torch.tensor(batch.done))


def compute_targets(dqn, target_dqn, rewards, next_states, dones, gamma):
    """
    Args:
        rewards (torch.FloatTensor of shape (batch_size, 1))
        next_states (torch.FloatTensor of shape (batch_size, state_dim))
        dones (torch.BoolTensor of shape (batch_size,))

    Returns:
        torch.FloatTensor of shape (batch_size, 1): r for terminal transitions, r + gamma * max_a Q'(s', a) otherwise
    """
    non_final_mask = ~dones
    target_values = rewards.clone()
    target_pred = target_dqn(next_states[non_final_mask])
    target_values[non_final_mask] = rewards[non_final_mask] + target_pred.max(1)[0] * gamma
    return target_values


def optimize(dqn, target_dqn, memory, optimizer, batch_size=6, gamma=0.99):
    states, actions, rewards, next_states, dones = memory.sample(batch_size)
    q_values = dqn(states).gather(1, actions)
    with torch.no_grad():
        target_values = compute_targets(dqn, target_dqn, rewards, next_states, dones, gamma)
    loss = F.smooth_l1_loss(q_values, target_values)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item(), rewards, next_states, dones, target_values


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    dqn, target_dqn = nn.Linear(4, 3), nn.Linear(4, 3)
    target_dqn.load_state_dict(dqn.state_dict())
    memory = ReplayMemory(100)
    for t in range(20):
        memory.put(torch.randn(4), random.randrange(3), random.random(), torch.randn(4), t % 7 == 6)
    loss, *_ = optimize(dqn, target_dqn, memory, torch.optim.SGD(dqn.parameters(), lr=0.01))
    print("loss:", round(loss, 4))
