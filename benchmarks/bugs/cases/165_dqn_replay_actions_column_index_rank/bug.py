import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    """MLP Q-function.

    Args:
        obs_dim (int): size of an observation.
        n_actions (int): number of discrete actions.
    """

    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs):
        """
        Args:
            obs (Tensor): observations of shape (batch_size, obs_dim).

        Returns:
            Tensor: Q-values of shape (batch_size, n_actions).
        """
        return self.net(obs)


def select_at_indexes(indexes, qs):
    """Q-value of the taken action for every sample.

    Args:
        indexes (LongTensor): taken actions of shape (batch_size,).
        qs (Tensor): Q-values of shape (batch_size, n_actions).

    Returns:
        Tensor: selected Q-values of shape (batch_size,).
    """
    return qs.gather(1, indexes.unsqueeze(-1)).squeeze(-1)


def dqn_loss(q_net, target_net, samples, gamma=0.99):
    """One-step TD loss.

    Args:
        samples (dict): ``obs`` and ``next_obs`` of shape (batch_size, obs_dim), ``action`` as
            stored by the replay buffer, ``reward`` and ``done`` of shape (batch_size,).
    """
    q = select_at_indexes(samples["action"], q_net(samples["obs"]))
    with torch.no_grad():
        target = samples["reward"] + gamma * (1 - samples["done"]) * target_net(samples["next_obs"]).max(-1).values
    return F.smooth_l1_loss(q, target)


def sample_replay(buffer, batch_size):
    idx = torch.randint(0, buffer["obs"].size(0), (batch_size,))
    return {key: value[idx] for key, value in buffer.items()}


if __name__ == "__main__":
    torch.manual_seed(0)
    size, obs_dim, n_actions = 100, 4, 3
    # Discrete action space; the env wrapper hands back each action as an array of shape (1,)
    buffer = {
        "obs": torch.randn(size, obs_dim),
        "next_obs": torch.randn(size, obs_dim),
        "action": torch.randint(0, n_actions, (size, 1)),
        "reward": torch.randn(size),
        "done": torch.zeros(size),
    }
    q_net, target_net = QNetwork(obs_dim, n_actions), QNetwork(obs_dim, n_actions)
    samples = sample_replay(buffer, batch_size=32)
    loss = dqn_loss(q_net, target_net, samples)
    print("loss:", loss.item())
