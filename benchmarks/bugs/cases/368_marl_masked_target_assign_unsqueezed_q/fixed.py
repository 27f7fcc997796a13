import torch
import torch.nn as nn
import torch.nn.functional as F


class AgentQNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs):
        return self.body(obs)


def td_targets(online, target, rewards, next_obs, non_final_mask, gamma=0.95):
    target_q = torch.zeros(rewards.size(0))
    live_next = next_obs[non_final_mask]
    with torch.no_grad():
        next_actions = online(live_next).argmax(dim=1, keepdim=True)
        next_q = target(live_next).gather(1, next_actions).squeeze(1)
    target_q[non_final_mask] = next_q
    return rewards + gamma * target_q


def update_agents(agents, targets, batch, optimizer):
    obs, actions, rewards, next_obs, non_final = batch
    loss = 0.0
    for i, (online, tgt) in enumerate(zip(agents, targets)):
        q_sa = online(obs[:, i]).gather(1, actions[:, i:i + 1]).squeeze(1)
        y = td_targets(online, tgt, rewards[:, i], next_obs[:, i], non_final)
        loss = loss + F.mse_loss(q_sa, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    agents = [AgentQNet(6, 4) for _ in range(2)]
    targets = [AgentQNet(6, 4) for _ in range(2)]
    opt = torch.optim.Adam([p for a in agents for p in a.parameters()], lr=1e-3)
    batch = (torch.randn(32, 2, 6), torch.randint(0, 4, (32, 2)), torch.randn(32, 2),
             torch.randn(32, 2, 6), torch.rand(32) > 0.2)
    obs, actions, rewards, next_obs, non_final = batch
    for i in range(2):
        y = td_targets(agents[i], targets[i], rewards[:, i], next_obs[:, i], non_final)
        with torch.no_grad():
            for n in range(32):
                ref = rewards[n, i].item()
                if non_final[n]:
                    a_star = agents[i](next_obs[n, i]).argmax().item()
                    ref += 0.95 * targets[i](next_obs[n, i])[a_star].item()
                assert abs(y[n].item() - ref) < 1e-5
    print("ok", round(update_agents(agents, targets, batch, opt), 4))
