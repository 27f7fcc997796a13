import numpy as np
import torch
import torch.nn.functional as F


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.float32)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.size = 0

    def add(self, obs, action, reward):
        self.obs[self.size] = obs
        self.actions[self.size] = action
        self.rewards[self.size] = reward
        self.size += 1

    def sample_batch(self):
        n = self.size
        return {"obs": torch.from_numpy(self.obs[:n]),
                "actions": torch.from_numpy(self.actions[:n]),
                "rewards": torch.from_numpy(self.rewards[:n])}


def q_selected(q_values, train_batch, num_actions):
    """Q(s, a) for the actions stored in the batch.

    Args:
        q_values: (batch, num_actions) output of the Q network.
        train_batch: dict with "actions" of shape (batch,).
    Returns:
        (batch,) tensor of selected Q values.
    """
    one_hot_selection = F.one_hot(train_batch["actions"].long(), num_actions)
    return (q_values * one_hot_selection).sum(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    buf = ReplayBuffer(16, 4)
    for t in range(6):
        buf.add(np.random.randn(4), t % 3, 1.0)
    batch = buf.sample_batch()
    q_net = torch.nn.Linear(4, 3)
    q = q_net(batch["obs"])
    out = q_selected(q, batch, 3)
    for i in range(q.shape[0]):
        assert torch.allclose(out[i], q[i, int(batch["actions"][i])])
    print("ok")
