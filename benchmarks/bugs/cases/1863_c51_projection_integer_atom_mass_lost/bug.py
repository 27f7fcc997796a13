import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {"obs_dim": 6, "n_actions": 3, "n_atoms": 51, "v_min": -10.0, "v_max": 10.0, "gamma": 0.99, "batch_size": 8}


class DistributionalQNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_actions, self.n_atoms = cfg["n_actions"], cfg["n_atoms"]
        self.body = nn.Sequential(nn.Linear(cfg["obs_dim"], 64), nn.ReLU(), nn.Linear(64, self.n_actions * self.n_atoms))

    def forward(self, obs):
        logits = self.body(obs).view(-1, self.n_actions, self.n_atoms)
        return F.softmax(logits, dim=-1)


def make_support(cfg):
    return torch.linspace(cfg["v_min"], cfg["v_max"], cfg["n_atoms"])


def project_target(next_probs, rewards, dones, cfg):
    support = make_support(cfg)
    n_atoms = cfg["n_atoms"]
    delta_z = (cfg["v_max"] - cfg["v_min"]) / (n_atoms - 1)
    batch = next_probs.size(0)
    tz = rewards.unsqueeze(1) + cfg["gamma"] * (1.0 - dones.unsqueeze(1)) * support.unsqueeze(0)
    tz = tz.clamp(cfg["v_min"], cfg["v_max"])
    b = (tz - cfg["v_min"]) / delta_z
    l = b.floor().long()
    u = b.ceil().long()
    offset = (torch.arange(batch) * n_atoms).unsqueeze(1).expand(batch, n_atoms)
    proj = torch.zeros(batch, n_atoms)
    proj.view(-1).index_add_(0, (l + offset).reshape(-1), (next_probs * (u.float() - b)).reshape(-1))
    proj.view(-1).index_add_(0, (u + offset).reshape(-1), (next_probs * (b - l.float())).reshape(-1))
    return proj


def c51_loss(online, target, batch, cfg):
    obs, actions, rewards, next_obs, dones = batch
    with torch.no_grad():
        next_dist = target(next_obs)
        next_q = (next_dist * make_support(cfg)).sum(-1)
        next_a = next_q.argmax(dim=1)
        next_probs = next_dist[torch.arange(next_dist.size(0)), next_a]
        target_probs = project_target(next_probs, rewards, dones, cfg)
    dist = online(obs)
    chosen = dist[torch.arange(dist.size(0)), actions]
    return -(target_probs * chosen.clamp(min=1e-8).log()).sum(-1).mean(), target_probs


def sample_batch(cfg):
    n = cfg["batch_size"]
    obs = torch.randn(n, cfg["obs_dim"])
    actions = torch.randint(0, cfg["n_actions"], (n,))
    rewards = torch.tensor([0.0, 1.0, 0.0, -1.0, 0.5, 20.0, 0.0, 2.0])
    next_obs = torch.randn(n, cfg["obs_dim"])
    dones = torch.tensor([1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0])
    return obs, actions, rewards, next_obs, dones


def reference_projection(next_probs, rewards, dones, cfg):
    support = make_support(cfg).tolist()
    n_atoms = cfg["n_atoms"]
    delta_z = (cfg["v_max"] - cfg["v_min"]) / (n_atoms - 1)
    out = torch.zeros_like(next_probs)
    for i in range(next_probs.size(0)):
        for j in range(n_atoms):
            tz = float(rewards[i]) + cfg["gamma"] * (1.0 - float(dones[i])) * support[j]
            tz = min(max(tz, cfg["v_min"]), cfg["v_max"])
            bj = (tz - cfg["v_min"]) / delta_z
            lo = int(torch.floor(torch.tensor(bj)))
            frac = bj - lo
            if lo >= n_atoms - 1 or frac == 0.0:
                out[i, min(lo, n_atoms - 1)] += next_probs[i, j]
            else:
                out[i, lo] += next_probs[i, j] * (1.0 - frac)
                out[i, lo + 1] += next_probs[i, j] * frac
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    online, target = DistributionalQNet(CONFIG), DistributionalQNet(CONFIG)
    batch = sample_batch(CONFIG)
    loss, target_probs = c51_loss(online, target, batch, CONFIG)
    print("projected mass per transition:", [round(v, 3) for v in target_probs.sum(-1).tolist()])
    print("loss:", loss.item())
