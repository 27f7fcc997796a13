import torch
import torch.nn as nn


class AgentQNet(nn.Module):
    """Per-agent utility network shared across agents (parameter sharing)."""

    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, obs):
        # obs: [B, T, n_agents, obs_dim] -> [B, T, n_agents, n_actions]
        return self.body(obs)


def double_q_target_values(model, target_model, obs, next_obs, next_avail):
    # obs, next_obs: [B, T, n_agents, obs_dim]
    # next_avail:    [B, T, n_agents, n_actions] (bool, legal actions in s_{t+1})
    mac_out_tp1 = model(next_obs).detach()         # [B, T, n_agents, n_actions]
    target_mac_out = target_model(next_obs)        # [B, T, n_agents, n_actions]

    mac_out_tp1 = mac_out_tp1.masked_fill(~next_avail, float("-inf"))
    cur_max_actions = mac_out_tp1.argmax(dim=3, keepdim=True)  # [B, T, n_agents, 1]
    target_max_qvals = torch.gather(target_mac_out, 3, cur_max_actions).squeeze(3)  # [B, T, n_agents]
    return target_max_qvals, cur_max_actions.squeeze(3)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, T, N, obs_dim, A = 4, 10, 3, 12, 6
    model, target_model = AgentQNet(obs_dim, A), AgentQNet(obs_dim, A)
    obs = torch.randn(B, T + 1, N, obs_dim)
    avail = torch.rand(B, T + 1, N, A) > 0.3
    avail[..., 0] = True  # no-op is always legal
    cur_obs, next_obs, next_avail = obs[:, :-1], obs[:, 1:], avail[:, 1:]

    with torch.no_grad():
        tq, acts = double_q_target_values(model, target_model, cur_obs, next_obs, next_avail)
        q_live_next = model(next_obs)
        q_tgt_next = target_model(next_obs)
    ref_acts = torch.empty(B, T, N, dtype=torch.long)
    ref = torch.empty(B, T, N)
    for b in range(B):
        for t in range(T):
            for n in range(N):
                legal = [a for a in range(A) if next_avail[b, t, n, a]]
                best = max(legal, key=lambda a: q_live_next[b, t, n, a].item())
                ref_acts[b, t, n] = best
                ref[b, t, n] = q_tgt_next[b, t, n, best]
    assert torch.equal(acts, ref_acts)
    assert torch.allclose(tq, ref, atol=1e-6)
    print("ok")
