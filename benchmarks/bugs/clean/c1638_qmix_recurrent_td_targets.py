"""Recurrent multi-agent Q-learning (QMIX-style) TD targets with gather over the action dim."""
import torch
import torch.nn as nn


class AgentRNN(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.fc = nn.Linear(obs_dim, hidden)
        self.rnn = nn.GRUCell(hidden, hidden)
        self.q = nn.Linear(hidden, n_actions)
        self.hidden = hidden

    def forward(self, obs, h):
        h = self.rnn(torch.relu(self.fc(obs)), h)
        return self.q(h), h


def unroll(agent, obs):
    """Run the agent network over a whole episode batch.

    Args:
        agent (AgentRNN): shared agent network.
        obs (Tensor): (B, T, A, obs_dim) observations.

    Returns:
        Tensor: (B, T, A, n_actions) Q-values.
    """
    b, t, a, _ = obs.shape
    h = obs.new_zeros(b * a, agent.hidden)
    qs = []
    for step in range(t):
        q, h = agent(obs[:, step].reshape(b * a, -1), h)
        qs.append(q.view(b, a, -1))
    return torch.stack(qs, dim=1)


class VDNMixer(nn.Module):
    def forward(self, agent_qs, state):
        return agent_qs.sum(dim=-1, keepdim=True)


def td_targets(agent, target_agent, mixer, batch, gamma=0.99, double_q=True):
    """Chosen-action values and double-Q TD targets.

    Args:
        batch (dict): ``obs`` (B, T+1, A, obs_dim), ``actions`` (B, T, A, 1) long,
            ``avail_actions`` (B, T+1, A, n_actions), ``reward`` (B, T, 1),
            ``terminated`` (B, T, 1), ``state`` (B, T+1, S).

    Returns:
        tuple: chosen (B, T, 1) mixed Q of the taken actions, targets (B, T, 1).
    """
    mac_out = unroll(agent, batch["obs"])  # (B, T+1, A, n_actions)
    chosen_action_qvals = torch.gather(mac_out[:, :-1], dim=3, index=batch["actions"]).squeeze(3)  # (B, T, A)

    with torch.no_grad():
        target_mac_out = unroll(target_agent, batch["obs"])[:, 1:]  # (B, T, A, n_actions)
        avail_next = batch["avail_actions"][:, 1:]
        target_mac_out = target_mac_out.masked_fill(avail_next == 0, -1e9)
        if double_q:
            live = mac_out[:, 1:].detach().masked_fill(avail_next == 0, -1e9)
            cur_max_actions = live.max(dim=3, keepdim=True)[1]  # (B, T, A, 1)
            target_max_qvals = torch.gather(target_mac_out, 3, cur_max_actions).squeeze(3)  # (B, T, A)
        else:
            target_max_qvals = target_mac_out.max(dim=3)[0]
        target_tot = mixer(target_max_qvals, batch["state"][:, 1:])  # (B, T, 1)
        targets = batch["reward"] + gamma * (1 - batch["terminated"]) * target_tot

    chosen = mixer(chosen_action_qvals, batch["state"][:, :-1])
    return chosen, targets


if __name__ == "__main__":
    torch.manual_seed(0)
    B, T, A, O, NA, S = 3, 5, 2, 6, 4, 7
    agent, target_agent, mixer = AgentRNN(O, NA), AgentRNN(O, NA), VDNMixer()
    avail = (torch.rand(B, T + 1, A, NA) > 0.3).float()
    avail[..., 0] = 1.0
    batch = {
        "obs": torch.randn(B, T + 1, A, O),
        "actions": torch.randint(0, NA, (B, T, A, 1)),
        "avail_actions": avail,
        "reward": torch.randn(B, T, 1),
        "terminated": torch.zeros(B, T, 1),
        "state": torch.randn(B, T + 1, S),
    }
    chosen, targets = td_targets(agent, target_agent, mixer, batch)

    with torch.no_grad():
        q = unroll(agent, batch["obs"])
        tq = unroll(target_agent, batch["obs"])
        for b in range(B):
            for t in range(T):
                c = sum(q[b, t, a, batch["actions"][b, t, a, 0]].item() for a in range(A))
                assert abs(c - chosen[b, t, 0].item()) < 1e-5
                nxt = 0.0
                for a in range(A):
                    legal = [u for u in range(NA) if avail[b, t + 1, a, u] == 1]
                    best = max(legal, key=lambda u: q[b, t + 1, a, u].item())
                    nxt += tq[b, t + 1, a, best].item()
                ref = batch["reward"][b, t, 0].item() + 0.99 * nxt
                assert abs(ref - targets[b, t, 0].item()) < 1e-4
    print("ok")
