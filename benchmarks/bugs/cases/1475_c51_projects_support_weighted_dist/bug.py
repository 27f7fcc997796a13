import torch
import torch.nn as nn
import torch.nn.functional as F


class CategoricalDQN(nn.Module):
    def __init__(self, num_inputs, num_actions, num_atoms, v_min, v_max):
        super().__init__()
        self.num_actions = num_actions
        self.num_atoms = num_atoms
        self.register_buffer("support", torch.linspace(v_min, v_max, num_atoms))
        self.net = nn.Sequential(nn.Linear(num_inputs, 64), nn.ReLU(), nn.Linear(64, num_actions * num_atoms))

    def forward(self, x):
        """Per-action return distributions.

        Args:
            x (`torch.FloatTensor` of shape `(batch_size, num_inputs)`): observations.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, num_actions, num_atoms)`: probabilities over the support.
        """
        logits = self.net(x).view(-1, self.num_actions, self.num_atoms)
        return F.softmax(logits, dim=-1)


def projection_distribution(target_model, next_state, rewards, dones, v_min, v_max, gamma=0.99):
    """Project the Bellman-updated target distribution back onto the fixed support.

    Args:
        target_model (`CategoricalDQN`): target network.
        next_state (`torch.FloatTensor` of shape `(batch_size, num_inputs)`): next observations.
        rewards (`torch.FloatTensor` of shape `(batch_size,)`): rewards.
        dones (`torch.FloatTensor` of shape `(batch_size,)`): 1.0 for terminal transitions.

    Returns:
        `torch.FloatTensor` of shape `(batch_size, num_atoms)`: target probabilities for the taken actions.
    """
    batch_size, num_atoms = next_state.size(0), target_model.num_atoms
    delta_z = float(v_max - v_min) / (num_atoms - 1)
    support = target_model.support

    next_dist = target_model(next_state).detach() * support
    next_action = next_dist.sum(2).max(1)[1]
    next_action = next_action.unsqueeze(1).unsqueeze(1).expand(batch_size, 1, num_atoms)
    next_dist = next_dist.gather(1, next_action).squeeze(1)

    Tz = rewards.unsqueeze(1) + (1 - dones.unsqueeze(1)) * gamma * support.unsqueeze(0)
    Tz = Tz.clamp(min=v_min, max=v_max)
    b = (Tz - v_min) / delta_z
    l, u = b.floor().long(), b.ceil().long()
    l[(u > 0) & (l == u)] -= 1
    u[(l < num_atoms - 1) & (l == u)] += 1

    offset = (torch.arange(batch_size) * num_atoms).unsqueeze(1).expand(batch_size, num_atoms)
    proj_dist = torch.zeros(batch_size, num_atoms)
    proj_dist.view(-1).index_add_(0, (l + offset).view(-1), (next_dist * (u.float() - b)).view(-1))
    proj_dist.view(-1).index_add_(0, (u + offset).view(-1), (next_dist * (b - l.float())).view(-1))
    return proj_dist


if __name__ == "__main__":
    torch.manual_seed(0)
    v_min, v_max = -10.0, 10.0
    target = CategoricalDQN(num_inputs=4, num_actions=2, num_atoms=51, v_min=v_min, v_max=v_max)
    next_state = torch.randn(8, 4)
    rewards = torch.randn(8)
    dones = (torch.rand(8) < 0.25).float()
    proj = projection_distribution(target, next_state, rewards, dones, v_min, v_max)
    print("projected mass per transition:", [round(m, 3) for m in proj.sum(1).tolist()])
    print("negative target probabilities:", int((proj < 0).sum()))
