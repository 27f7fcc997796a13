import numpy as np
import torch
import torch.nn as nn


class ReplayBuffer(object):
    def __init__(self, size, obs_dim):
        self.size, self.next_idx, self.num_in_buffer = size, 0, 0
        self.obs = np.zeros((size, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((size, obs_dim), dtype=np.float32)
        self.action = np.zeros(size, dtype=np.int64)
        self.reward = np.zeros(size, dtype=np.float32)
        self.done = np.zeros(size, dtype=np.float32)

    def store(self, obs, action, reward, next_obs, done):
        i = self.next_idx
        self.obs[i], self.action[i], self.reward[i], self.next_obs[i], self.done[i] = obs, action, reward, next_obs, done
        self.next_idx = (self.next_idx + 1) % self.size
        self.num_in_buffer = min(self.size, self.num_in_buffer + 1)

    def sample(self, batch_size, rng):
        idxes = rng.choice(self.num_in_buffer, batch_size, replace=False)
        return self.obs[idxes], self.action[idxes], self.reward[idxes], self.next_obs[idxes], self.done[idxes]


def dqn_update(Q, Q_target, optimizer, replay_buffer, batch_size, gamma, rng):
    obs_batch, act_batch, rew_batch, next_obs_batch, done_mask = replay_buffer.sample(batch_size, rng)
    obs_t = torch.from_numpy(obs_batch)
    act_t = torch.from_numpy(act_batch)
    rew_t = torch.from_numpy(rew_batch)
    obs_tp1 = torch.from_numpy(next_obs_batch)
    done_mask = torch.from_numpy(done_mask)

    q_values = Q(obs_t)
    q_s_a = q_values.gather(1, act_t.unsqueeze(1))
    q_s_a = q_s_a.squeeze()

    q_tp1_values = Q_target(obs_tp1).detach()
    q_s_a_prime, a_prime = q_tp1_values.max(1)
    q_s_a_prime = (1 - done_mask) * q_s_a_prime

    error = rew_t + gamma * q_s_a_prime - q_s_a
    clipped_error = -1.0 * error.clamp(-1, 1)

    optimizer.zero_grad()
    q_s_a.backward(clipped_error.data.unsqueeze(1))
    optimizer.step()
    return act_t, clipped_error.detach()


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    Q, Q_target = nn.Linear(4, 3), nn.Linear(4, 3)
    Q_target.load_state_dict(Q.state_dict())
    optimizer = torch.optim.SGD(Q.parameters(), lr=0.0)
    replay_buffer = ReplayBuffer(100, 4)
    for _ in range(40):
        replay_buffer.store(rng.normal(size=4), rng.integers(3), rng.normal(), rng.normal(size=4), float(rng.random() < 0.1))
    act_t, clipped_error = dqn_update(Q, Q_target, optimizer, replay_buffer, batch_size=32, gamma=0.99, rng=rng)
    print("bias gradient:", [round(g, 4) for g in Q.bias.grad.tolist()])
