import torch
import torch.nn as nn
import torch.nn.functional as F


class DistributionalHead(nn.Module):
    def __init__(self, in_dim, n_actions, atoms):
        super().__init__()
        self.n_actions, self.atoms = n_actions, atoms
        self.fc = nn.Linear(in_dim, n_actions * atoms)

    def forward(self, x):
        logits = self.fc(x).view(-1, self.n_actions, self.atoms)  # [B, A, atoms]
        return F.softmax(logits, dim=-1)


class C51Agent:
    def __init__(self, in_dim, n_actions, atoms=51, v_min=-10.0, v_max=10.0, gamma=0.99, n_step=3):
        self.atoms, self.v_min, self.v_max = atoms, v_min, v_max
        self.support = torch.linspace(v_min, v_max, atoms)  # [atoms]
        self.delta_z = (v_max - v_min) / (atoms - 1)
        self.discount = gamma ** n_step
        self.online = DistributionalHead(in_dim, n_actions, atoms)
        self.target = DistributionalHead(in_dim, n_actions, atoms)
        self.target.load_state_dict(self.online.state_dict())

    @torch.no_grad()
    def target_distribution(self, returns, next_states, nonterminals):
        # returns: [B]   next_states: [B, in_dim]   nonterminals: [B, 1]
        batch_size = returns.size(0)
        q_next = (self.online(next_states) * self.support).sum(-1)  # [B, A]
        best = q_next.argmax(1)  # [B]
        pns_a = self.target(next_states)[torch.arange(batch_size), best]  # [B, atoms]

        tz = returns.unsqueeze(1) + nonterminals * self.discount * self.support.unsqueeze(0)  # [B, atoms]
        tz = tz.clamp(min=self.v_min, max=self.v_max)
        b = (tz - self.v_min) / self.delta_z  # [B, atoms], fractional atom position
        l, u = b.floor().long(), b.ceil().long()
        # when b lands exactly on an atom, l == u and both weights below are 0: move one bound
        l[(u > 0) & (l == u)] -= 1
        u[(l < (self.atoms - 1)) & (l == u)] += 1

        m = torch.zeros(batch_size, self.atoms)
        offset = (torch.arange(batch_size) * self.atoms).unsqueeze(1).expand(batch_size, self.atoms)
        m.view(-1).index_add_(0, (l + offset).view(-1), (pns_a * (u.float() - b)).view(-1))
        m.view(-1).index_add_(0, (u + offset).view(-1), (pns_a * (b - l.float())).view(-1))
        return m  # [B, atoms]


def reference_projection(agent, returns, next_states, nonterminals):
    q_next = (agent.online(next_states) * agent.support).sum(-1)
    probs = agent.target(next_states)
    out = []
    for i in range(returns.size(0)):
        a = int(q_next[i].argmax())
        row = [0.0] * agent.atoms
        for j in range(agent.atoms):
            p = float(probs[i, a, j])
            tz = float(returns[i]) + float(nonterminals[i, 0]) * agent.discount * float(agent.support[j])
            tz = min(max(tz, agent.v_min), agent.v_max)
            bj = (tz - agent.v_min) / agent.delta_z
            lo, hi = int(torch.tensor(bj).floor()), int(torch.tensor(bj).ceil())
            if lo == hi:
                row[lo] += p
            else:
                row[lo] += p * (hi - bj)
                row[hi] += p * (bj - lo)
        out.append(row)
    return torch.tensor(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = C51Agent(in_dim=8, n_actions=4)
    returns = torch.tensor([0.0, 1.0, 0.37, -2.0, 12.0, 0.8])
    next_states = torch.randn(6, 8)
    nonterminals = torch.tensor([[0.0], [1.0], [1.0], [0.0], [1.0], [1.0]])
    with torch.no_grad():
        m = agent.target_distribution(returns, next_states, nonterminals)
        ref = reference_projection(agent, returns, next_states, nonterminals)
    assert torch.allclose(m, ref, atol=1e-5), (m - ref).abs().max()
    assert torch.allclose(m.sum(1), torch.ones(6), atol=1e-5)
    print("ok")
