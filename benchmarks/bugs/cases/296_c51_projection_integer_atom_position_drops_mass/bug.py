import torch
import torch.nn as nn
import torch.nn.functional as F


class Network(nn.Module):
    def __init__(self, in_dim: int, out_dim: int, atom_size: int, support: torch.Tensor):
        super().__init__()
        self.support, self.out_dim, self.atom_size = support, out_dim, atom_size
        self.layers = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, out_dim * atom_size))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(self.dist(x) * self.support, dim=2)

    def dist(self, x: torch.Tensor) -> torch.Tensor:
        q_atoms = self.layers(x).view(-1, self.out_dim, self.atom_size)
        return F.softmax(q_atoms, dim=-1).clamp(min=1e-3)


class CategoricalDQNAgent:
    def __init__(self, obs_dim, action_dim, gamma=0.99, v_min=0.0, v_max=200.0, atom_size=51):
        self.gamma, self.v_min, self.v_max, self.atom_size = gamma, v_min, v_max, atom_size
        self.support = torch.linspace(v_min, v_max, atom_size)
        self.dqn = Network(obs_dim, action_dim, atom_size, self.support)
        self.dqn_target = Network(obs_dim, action_dim, atom_size, self.support)
        self.dqn_target.load_state_dict(self.dqn.state_dict())
        self.optimizer = torch.optim.Adam(self.dqn.parameters())

    def project_target(self, next_state, reward, done):
        delta_z = float(self.v_max - self.v_min) / (self.atom_size - 1)
        batch_size = next_state.shape[0]
        with torch.no_grad():
            next_action = self.dqn_target(next_state).argmax(1)
            next_dist = self.dqn_target.dist(next_state)
            next_dist = next_dist[range(batch_size), next_action]
            t_z = reward + (1 - done) * self.gamma * self.support
            t_z = t_z.clamp(min=self.v_min, max=self.v_max)
            b = (t_z - self.v_min) / delta_z
            l = b.floor().long()
            u = b.ceil().long()
            offset = (
                torch.linspace(0, (batch_size - 1) * self.atom_size, batch_size).long()
                .unsqueeze(1).expand(batch_size, self.atom_size)
            )
            proj_dist = torch.zeros(next_dist.size())
            proj_dist.view(-1).index_add_(0, (l + offset).view(-1), (next_dist * (u.float() - b)).view(-1))
            proj_dist.view(-1).index_add_(0, (u + offset).view(-1), (next_dist * (b - l.float())).view(-1))
        return proj_dist, next_dist

    def compute_dqn_loss(self, state, action, reward, next_state, done):
        proj_dist, _ = self.project_target(next_state, reward, done)
        dist = self.dqn.dist(state)
        log_p = torch.log(dist[range(state.shape[0]), action])
        return -(proj_dist * log_p).sum(1).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = CategoricalDQNAgent(obs_dim=4, action_dim=2, gamma=0.99, v_min=0.0, v_max=200.0, atom_size=51)
    next_state = torch.randn(4, 4)
    reward = torch.tensor([[1.0], [0.0], [4.0], [1.0]])
    done = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
    proj_dist, next_dist = agent.project_target(next_state, reward, done)
    delta_z = 200.0 / 50
    expected = torch.zeros(4, 51)
    for i in range(4):
        for j in range(51):
            tz = min(max(reward[i, 0].item() + (1 - done[i, 0].item()) * 0.99 * agent.support[j].item(), 0.0), 200.0)
            bj = tz / delta_z
            lj = int(bj // 1)
            p = next_dist[i, j].item()
            if lj >= 50:
                expected[i, 50] += p
            else:
                expected[i, lj] += p * (lj + 1 - bj)
                expected[i, lj + 1] += p * (bj - lj)
    print("projected mass per transition:", [round(v, 4) for v in proj_dist.sum(1).tolist()])
    print("max |proj_dist - loop projection|:", round((proj_dist - expected).abs().max().item(), 4))
