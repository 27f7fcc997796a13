import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, obs):
        # obs: [B, obs_dim] -> Categorical over [B, n_actions], value [B]
        return Categorical(logits=self.actor(obs)), self.critic(obs).squeeze(-1)


def ppo_iter(mini_batch_size, states, actions, log_probs, returns, advantage, generator):
    # states: [N, obs_dim]; actions, log_probs, returns, advantage: [N]
    batch_size = states.size(0)
    for _ in range(batch_size // mini_batch_size):
        rand_ids = torch.randint(0, batch_size, (mini_batch_size,), generator=generator)
        yield states[rand_ids, :], actions[rand_ids, :], log_probs[rand_ids, :], returns[rand_ids, :], advantage[rand_ids, :]


def ppo_update(model, optimizer, epochs, mini_batch_size, rollout, clip=0.2, seed=0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for state, action, old_log_probs, return_, adv in ppo_iter(mini_batch_size, *rollout, generator=g):
            dist, value = model(state)
            ratio = (dist.log_prob(action) - old_log_probs).exp()  # [mb]
            surr = torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv)
            loss = -surr.mean() + 0.5 * (return_ - value).pow(2).mean() - 0.01 * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ActorCritic(obs_dim=4, n_actions=2)
    states = torch.randn(64, 4)
    with torch.no_grad():
        dist, values = model(states)
        actions = dist.sample()  # [64]
        log_probs = dist.log_prob(actions)  # [64]
    returns = torch.randn(64)
    rollout = (states, actions, log_probs, returns, returns - values)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    ppo_update(model, optimizer, epochs=2, mini_batch_size=16, rollout=rollout)
    print("updated policy logits:", model.actor(states[:2]).tolist())
