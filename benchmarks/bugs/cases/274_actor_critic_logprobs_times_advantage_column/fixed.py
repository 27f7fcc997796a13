import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, num_inputs, num_outputs, hidden_size):
        super().__init__()
        self.critic = nn.Sequential(nn.Linear(num_inputs, hidden_size), nn.ReLU(), nn.Linear(hidden_size, 1))
        self.actor = nn.Sequential(nn.Linear(num_inputs, hidden_size), nn.ReLU(), nn.Linear(hidden_size, num_outputs),
                                   nn.Softmax(dim=1))

    def forward(self, x):
        value = self.critic(x)
        probs = self.actor(x)
        return Categorical(probs), value


class ChainEnvs:
    def __init__(self, num_envs, length, seed):
        self.num_envs, self.length = num_envs, length
        self.rng = np.random.default_rng(seed)
        self.pos = np.zeros(num_envs, dtype=np.int64)

    def observe(self):
        return np.stack([self.pos / self.length, np.ones(self.num_envs)], axis=1).astype(np.float32)

    def step(self, actions):
        self.pos = np.clip(self.pos + np.where(actions == 1, 1, -1), 0, self.length)
        done = self.pos == self.length
        reward = done.astype(np.float32) - 0.01
        self.pos[done] = 0
        return self.observe(), reward, done.astype(np.float32)


def compute_returns(next_value, rewards, masks, gamma=0.99):
    R = next_value
    returns = []
    for step in reversed(range(len(rewards))):
        R = rewards[step] + gamma * R * masks[step]
        returns.insert(0, R)
    return returns


def a2c_losses(model, envs, params):
    log_probs, values, rewards, masks = [], [], [], []
    entropy = 0
    state = envs.observe()
    for _ in range(params["num_steps"]):
        dist, value = model(torch.FloatTensor(state))
        action = dist.sample()
        next_state, reward, done = envs.step(action.numpy())
        log_prob = dist.log_prob(action)
        entropy += dist.entropy().mean()
        log_probs.append(log_prob)
        values.append(value)
        rewards.append(torch.FloatTensor(reward).unsqueeze(1))
        masks.append(torch.FloatTensor(1 - done).unsqueeze(1))
        state = next_state
    _, next_value = model(torch.FloatTensor(state))
    returns = compute_returns(next_value, rewards, masks)

    log_probs = torch.cat(log_probs)
    returns = torch.cat(returns).detach()
    values = torch.cat(values)
    advantage = returns - values
    actor_loss = -(log_probs * advantage.detach().squeeze(1)).mean()
    critic_loss = advantage.pow(2).mean()
    return actor_loss, critic_loss, entropy, (log_probs, returns, values)


if __name__ == "__main__":
    torch.manual_seed(0)
    params = {"num_envs": 4, "num_steps": 5, "hidden_size": 16}
    model = ActorCritic(2, 2, params["hidden_size"])
    envs = ChainEnvs(params["num_envs"], length=3, seed=0)
    actor_loss, critic_loss, entropy, (log_probs, returns, values) = a2c_losses(model, envs, params)
    per_sample = [-(lp * (r - v)).item() for lp, r, v in zip(log_probs, returns[:, 0], values[:, 0].detach())]
    print("actor loss:", round(actor_loss.item(), 5))
    print("mean of -log_prob * advantage over the 20 samples:", round(sum(per_sample) / len(per_sample), 5))
    assert abs(actor_loss.item() - sum(per_sample) / len(per_sample)) < 1e-5
    print("ok")
