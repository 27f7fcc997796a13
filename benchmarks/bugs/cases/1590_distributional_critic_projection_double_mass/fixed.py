import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float
from torch import Tensor


class DistributionalQNetwork(nn.Module):
    def __init__(self, n_obs: int, n_act: int, num_atoms: int, v_min: float, v_max: float, hidden_dim: int):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_obs + n_act, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, num_atoms)
        )
        self.v_min = v_min
        self.v_max = v_max
        self.num_atoms = num_atoms

    def forward(self, obs: Float[Tensor, "b obs"], actions: Float[Tensor, "b act"]) -> Float[Tensor, "b atoms"]:
        return self.net(torch.cat([obs, actions], 1))

    def projection(
        self,
        obs: Float[Tensor, "b obs"],
        actions: Float[Tensor, "b act"],
        rewards: Float[Tensor, " b"],
        bootstrap: Float[Tensor, " b"],
        discount: Float[Tensor, " b"],
        q_support: Float[Tensor, " atoms"],
    ) -> Float[Tensor, "b atoms"]:
        delta_z = (self.v_max - self.v_min) / (self.num_atoms - 1)
        batch_size = rewards.shape[0]

        target_z = rewards.unsqueeze(1) + bootstrap.unsqueeze(1) * discount.unsqueeze(1) * q_support
        target_z = target_z.clamp(self.v_min, self.v_max)
        b = (target_z - self.v_min) / delta_z
        l = torch.floor(b).long()
        u = torch.ceil(b).long()

        # floor == ceil when b lands on an atom: move one end so the two weights are 1 and 0
        is_int = l == u
        l_mask = is_int & (l > 0)
        u_mask = is_int & (l == 0)
        l = torch.where(l_mask, l - 1, l)
        u = torch.where(u_mask, u + 1, u)

        next_dist = F.softmax(self.forward(obs, actions), dim=1)
        proj_dist = torch.zeros_like(next_dist)
        offset = (torch.arange(batch_size) * self.num_atoms).unsqueeze(1).expand(batch_size, self.num_atoms)
        proj_dist.view(-1).index_add_(0, (l + offset).view(-1), (next_dist * (u.float() - b)).view(-1))
        proj_dist.view(-1).index_add_(0, (u + offset).view(-1), (next_dist * (b - l.float())).view(-1))
        return proj_dist


def reference_projection(next_dist, rewards, bootstrap, discount, q_support, v_min, v_max):
    n_atoms = q_support.numel()
    delta_z = (v_max - v_min) / (n_atoms - 1)
    out = torch.zeros_like(next_dist)
    for i in range(next_dist.shape[0]):
        for j in range(n_atoms):
            tz = min(max(rewards[i].item() + bootstrap[i].item() * discount[i].item() * q_support[j].item(), v_min), v_max)
            bj = (tz - v_min) / delta_z
            lo, hi = int(torch.floor(torch.tensor(bj))), int(torch.ceil(torch.tensor(bj)))
            if lo == hi:
                out[i, lo] += next_dist[i, j]
            else:
                out[i, lo] += next_dist[i, j] * (hi - bj)
                out[i, hi] += next_dist[i, j] * (bj - lo)
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = dict(n_obs=6, n_act=2, num_atoms=21, v_min=-10.0, v_max=10.0, hidden_dim=32)
    qnet = DistributionalQNetwork(**cfg)
    q_support = torch.linspace(cfg["v_min"], cfg["v_max"], cfg["num_atoms"])
    obs, actions = torch.randn(6, 6), torch.randn(6, 2)
    rewards = torch.tensor([1.0, -3.0, 0.37, 2.0, 12.0, -0.5])
    bootstrap = torch.tensor([0.0, 0.0, 1.0, 1.0, 0.0, 1.0])  # 0 = episode ended
    discount = torch.full((6,), 0.5)
    with torch.no_grad():
        proj = qnet.projection(obs, actions, rewards, bootstrap, discount, q_support)
        next_dist = F.softmax(qnet(obs, actions), dim=1)
    ref = reference_projection(next_dist, rewards, bootstrap, discount, q_support, cfg["v_min"], cfg["v_max"])
    assert torch.allclose(proj, ref, atol=1e-6)
    assert torch.allclose(proj.sum(1), torch.ones(6), atol=1e-6)
    print("ok")
