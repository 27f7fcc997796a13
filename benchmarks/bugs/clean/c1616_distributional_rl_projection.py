"""Distributional RL utilities: C51 target projection and QR-DQN action selection."""
import torch
import torch.nn as nn


class CategoricalHead(nn.Module):
    """C51 head producing a categorical return distribution per action.

    Args:
        in_dim (`int`): Feature size.
        n_actions (`int`): Number of discrete actions.
        n_atoms (`int`): Number of support atoms.
        v_min, v_max (`float`): Support range.
    """

    def __init__(self, in_dim, n_actions, n_atoms=51, v_min=-10.0, v_max=10.0):
        super().__init__()
        self.n_actions, self.n_atoms = n_actions, n_atoms
        self.v_min, self.v_max = v_min, v_max
        self.register_buffer("support", torch.linspace(v_min, v_max, n_atoms))
        self.fc = nn.Linear(in_dim, n_actions * n_atoms)

    def forward(self, x):
        """Returns probabilities of shape `(batch, n_actions, n_atoms)`."""
        logits = self.fc(x).view(-1, self.n_actions, self.n_atoms)
        return logits.softmax(dim=-1)


def chosen_action_dist(probs, actions):
    """Distribution of the taken actions.

    Args:
        probs (`torch.Tensor` of shape `(batch, n_actions, n_atoms)`)
        actions (`torch.LongTensor` of shape `(batch,)`)

    Returns:
        `torch.Tensor` of shape `(batch, n_atoms)`.
    """
    idx = actions.view(-1, 1, 1).expand(-1, 1, probs.size(2))
    return probs.gather(1, idx).squeeze(1)


def project_distribution(next_probs, rewards, dones, gamma, support):
    """Project the Bellman-updated distribution back onto the fixed support.

    Args:
        next_probs (`torch.Tensor` of shape `(batch, n_atoms)`): target distribution of the greedy next action.
        rewards, dones (`torch.Tensor` of shape `(batch,)`)
        gamma (`float`)
        support (`torch.Tensor` of shape `(n_atoms,)`)

    Returns:
        `torch.Tensor` of shape `(batch, n_atoms)`.
    """
    batch, n_atoms = next_probs.shape
    v_min, v_max = support[0].item(), support[-1].item()
    delta_z = (v_max - v_min) / (n_atoms - 1)

    tz = rewards.unsqueeze(1) + gamma * (1 - dones.unsqueeze(1)) * support.unsqueeze(0)
    tz = tz.clamp(v_min, v_max)
    b = (tz - v_min) / delta_z
    lower = b.floor().long()
    upper = b.ceil().long()
    # when b lands exactly on an atom, give the whole mass to it
    lower[(upper > 0) & (lower == upper)] -= 1
    upper[(lower < n_atoms - 1) & (lower == upper)] += 1

    offset = (torch.arange(batch) * n_atoms).unsqueeze(1).expand(batch, n_atoms)
    proj = torch.zeros(batch * n_atoms)
    proj.index_add_(0, (lower + offset).reshape(-1), (next_probs * (upper.float() - b)).reshape(-1))
    proj.index_add_(0, (upper + offset).reshape(-1), (next_probs * (b - lower.float())).reshape(-1))
    return proj.view(batch, n_atoms)


def greedy_next_dist(online_head, target_head, next_feats):
    """Double-DQN style: select with the online head, evaluate with the target head."""
    online = online_head(next_feats)
    q = (online * online_head.support).sum(-1)          # (batch, n_actions)
    best = q.argmax(dim=1)
    return chosen_action_dist(target_head(next_feats), best), best


def quantiles_of_actions(quantiles, actions):
    """QR-DQN: quantiles `(batch, n_quantiles, n_actions)` of the taken `actions` `(batch,)`."""
    idx = actions[:, None, None].expand(-1, quantiles.size(1), 1)
    return quantiles.gather(2, idx).squeeze(2)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, F, A, N = 6, 8, 4, 11
    online, target = CategoricalHead(F, A, N, -5.0, 5.0), CategoricalHead(F, A, N, -5.0, 5.0)
    feats, next_feats = torch.randn(B, F), torch.randn(B, F)
    actions = torch.randint(0, A, (B,))
    rewards = torch.randn(B)
    dones = torch.tensor([0.0, 1.0, 0.0, 0.0, 1.0, 0.0])

    with torch.no_grad():
        p = online(feats)
        taken = chosen_action_dist(p, actions)
        nxt, best = greedy_next_dist(online, target, next_feats)
        proj = project_distribution(nxt, rewards, dones, 0.9, online.support)

    tp = target(next_feats).detach()
    z = online.support.tolist()
    dz = (z[-1] - z[0]) / (N - 1)
    for i in range(B):
        assert torch.equal(taken[i], p[i, actions[i]])
        assert torch.equal(nxt[i], tp[i, best[i]])
        ref = [0.0] * N
        for j in range(N):
            t = min(max(rewards[i].item() + 0.9 * (1 - dones[i].item()) * z[j], z[0]), z[-1])
            bj = (t - z[0]) / dz
            lo, hi = int(bj // 1), int(-(-bj // 1))
            if lo == hi:
                ref[lo] += nxt[i, j].item()
            else:
                ref[lo] += nxt[i, j].item() * (hi - bj)
                ref[hi] += nxt[i, j].item() * (bj - lo)
        assert torch.allclose(proj[i], torch.tensor(ref), atol=1e-5)
    assert torch.allclose(proj.sum(1), torch.ones(B), atol=1e-5)

    quant = torch.randn(B, 7, A)
    qa = quantiles_of_actions(quant, actions)
    for i in range(B):
        for k in range(7):
            assert qa[i, k] == quant[i, k, actions[i]]
    print("ok")
