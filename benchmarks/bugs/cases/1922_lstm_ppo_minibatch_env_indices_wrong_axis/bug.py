import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=16):
        super().__init__()
        self.network = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.lstm = nn.LSTM(hidden, hidden)
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def get_states(self, x, lstm_state, done):
        hidden = self.network(x)
        batch_size = lstm_state[0].shape[1]
        hidden = hidden.reshape((-1, batch_size, self.lstm.input_size))
        done = done.reshape((-1, batch_size))
        new_hidden = []
        for h, d in zip(hidden, done):
            h, lstm_state = self.lstm(
                h.unsqueeze(0),
                (
                    (1.0 - d).view(1, -1, 1) * lstm_state[0],
                    (1.0 - d).view(1, -1, 1) * lstm_state[1],
                ),
            )
            new_hidden += [h]
        new_hidden = torch.flatten(torch.cat(new_hidden), 0, 1)
        return new_hidden, lstm_state

    def get_value(self, x, lstm_state, done):
        hidden, _ = self.get_states(x, lstm_state, done)
        return self.critic(hidden)

    def get_action_and_value(self, x, lstm_state, done, action=None):
        hidden, lstm_state = self.get_states(x, lstm_state, done)
        logits = self.actor(hidden)
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(hidden), lstm_state


def rollout(agent, env_obs, env_dones, num_steps, num_envs, next_lstm_state):
    obs = torch.zeros((num_steps, num_envs) + env_obs.shape[2:])
    actions = torch.zeros((num_steps, num_envs))
    logprobs = torch.zeros((num_steps, num_envs))
    dones = torch.zeros((num_steps, num_envs))
    initial_lstm_state = (next_lstm_state[0].clone(), next_lstm_state[1].clone())
    for step in range(num_steps):
        obs[step] = env_obs[step]
        dones[step] = env_dones[step]
        with torch.no_grad():
            action, logprob, _, _, next_lstm_state = agent.get_action_and_value(obs[step], next_lstm_state, dones[step])
        actions[step] = action
        logprobs[step] = logprob
    return obs, actions, logprobs, dones, initial_lstm_state


def minibatch_logprobs(agent, obs, actions, logprobs, dones, initial_lstm_state, num_envs, num_steps, num_minibatches, generator):
    b_obs = obs.reshape((-1,) + obs.shape[2:])
    b_logprobs = logprobs.reshape(-1)
    b_actions = actions.reshape(-1)
    b_dones = dones.reshape(-1)
    batch_size = num_envs * num_steps
    envsperbatch = num_envs // num_minibatches
    envinds = torch.randperm(num_envs, generator=generator)
    flatinds = torch.arange(batch_size).reshape(num_envs, num_steps)
    results = []
    for start in range(0, num_envs, envsperbatch):
        end = start + envsperbatch
        mbenvinds = envinds[start:end]
        mb_inds = flatinds[mbenvinds].ravel()
        _, newlogprob, entropy, newvalue, _ = agent.get_action_and_value(
            b_obs[mb_inds],
            (initial_lstm_state[0][:, mbenvinds], initial_lstm_state[1][:, mbenvinds]),
            b_dones[mb_inds],
            b_actions.long()[mb_inds],
        )
        results.append((mbenvinds, mb_inds, newlogprob, b_logprobs[mb_inds]))
    return results


if __name__ == "__main__":
    torch.manual_seed(0)
    num_steps, num_envs, obs_dim, n_actions = 4, 4, 3, 5
    agent = Agent(obs_dim, n_actions)
    env_obs = torch.randn(num_steps, num_envs, obs_dim)
    env_obs[..., 0] = torch.arange(num_steps).view(-1, 1) * 10 + torch.arange(num_envs).view(1, -1)
    env_dones = torch.zeros(num_steps, num_envs)
    env_dones[2, 1] = 1.0
    lstm_state = (torch.randn(1, num_envs, 16), torch.randn(1, num_envs, 16))
    obs, actions, logprobs, dones, initial_lstm_state = rollout(agent, env_obs, env_dones, num_steps, num_envs, lstm_state)
    results = minibatch_logprobs(agent, obs, actions, logprobs, dones, initial_lstm_state,
                                 num_envs, num_steps, num_minibatches=2, generator=torch.Generator().manual_seed(1))
    for mbenvinds, mb_inds, newlogprob, oldlogprob in results:
        tags = obs.reshape(-1, obs_dim)[mb_inds, 0].long().tolist()
        print("envs", mbenvinds.tolist(), "-> (step, env) rows", [(t // 10, t % 10) for t in tags])
        print("  max |new - old| log-prob before any update:", float((newlogprob - oldlogprob).detach().abs().max()))
