import torch
import torch.nn as nn


class SimpleReplayBuffer:
    def __init__(self, capacity, obs_dim, action_dim):
        self._capacity = capacity
        self._obs = torch.zeros(capacity, obs_dim)            # [capacity, obs_dim]
        self._next_obs = torch.zeros(capacity, obs_dim)       # [capacity, obs_dim]
        self._actions = torch.zeros(capacity, action_dim)     # [capacity, action_dim]
        self._rewards = torch.zeros(capacity, 1)              # [capacity, 1]
        self._terminals = torch.zeros(capacity, 1)            # [capacity, 1]
        self._top = 0
        self._size = 0

    def add_sample(self, observation, action, reward, terminal, next_observation):
        self._obs[self._top] = observation
        self._actions[self._top] = action                     # row of width action_dim
        self._rewards[self._top] = reward
        self._terminals[self._top] = terminal
        self._next_obs[self._top] = next_observation
        self._top = (self._top + 1) % self._capacity
        self._size = min(self._size + 1, self._capacity)

    def random_batch(self, batch_size, generator=None):
        idx = torch.randint(0, self._size, (batch_size,), generator=generator)
        return dict(
            observations=self._obs[idx],          # [B, obs_dim]
            actions=self._actions[idx],           # [B, action_dim]
            rewards=self._rewards[idx],           # [B, 1]
            terminals=self._terminals[idx],       # [B, 1]
            next_observations=self._next_obs[idx],
        )


class Discrete:
    def __init__(self, n):
        self.n = n


class Box:
    def __init__(self, shape):
        self.shape = shape


def get_dim(space):
    if isinstance(space, Box):
        return space.shape[0]
    if isinstance(space, Discrete):
        return space.n
    raise TypeError(space)


class EnvReplayBuffer(SimpleReplayBuffer):
    def __init__(self, capacity, observation_space, action_space):
        self._action_space = action_space
        super().__init__(capacity, get_dim(observation_space), get_dim(action_space))

    def add_sample(self, observation, action, reward, terminal, next_observation):
        if isinstance(self._action_space, Discrete):
            action = torch.eye(self._action_space.n)[action]          # int -> one-hot row
        super().add_sample(observation, action, reward, terminal, next_observation)


class DQNTrainer:
    def __init__(self, qf, target_qf, discount=0.99):
        self.qf = qf
        self.target_qf = target_qf
        self.discount = discount
        self.qf_criterion = nn.MSELoss()

    def compute_loss(self, batch):
        obs = batch["observations"]
        actions = batch["actions"]                                # [B, n_actions], one-hot expected
        rewards = batch["rewards"]                                # [B, 1]
        terminals = batch["terminals"]                            # [B, 1]
        next_obs = batch["next_observations"]

        target_q_values = self.target_qf(next_obs).detach().max(1, keepdim=True)[0]   # [B, 1]
        y_target = rewards + (1.0 - terminals) * self.discount * target_q_values
        y_pred = torch.sum(self.qf(obs) * actions, dim=1, keepdim=True)                # [B, 1] Q(s, a)
        return self.qf_criterion(y_pred, y_target), y_pred


if __name__ == "__main__":
    torch.manual_seed(0)
    obs_dim, n_actions = 6, 4
    qf = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
    target_qf = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
    target_qf.load_state_dict(qf.state_dict())

    buffer = EnvReplayBuffer(64, Box((obs_dim,)), Discrete(n_actions))
    taken = []
    for t in range(40):
        action = t % n_actions                                    # env.step takes an int
        taken.append(action)
        buffer.add_sample(torch.randn(obs_dim), action, float(t % 3), float(t % 10 == 9), torch.randn(obs_dim))

    trainer = DQNTrainer(qf, target_qf)
    gen = torch.Generator().manual_seed(1)
    idx = torch.randint(0, buffer._size, (8,), generator=torch.Generator().manual_seed(1))
    batch = buffer.random_batch(8, generator=gen)
    loss, y_pred = trainer.compute_loss(batch)

    with torch.no_grad():
        q_all = qf(batch["observations"])
        q_next = target_qf(batch["next_observations"])
    ref_pred, ref_loss = [], 0.0
    for b in range(8):
        a = taken[idx[b].item()]
        ref_pred.append(q_all[b, a].item())
        target = batch["rewards"][b, 0].item() + (1.0 - batch["terminals"][b, 0].item()) * 0.99 * max(q_next[b].tolist())
        ref_loss += (q_all[b, a].item() - target) ** 2 / 8
    assert torch.allclose(y_pred[:, 0], torch.tensor(ref_pred), atol=1e-6)
    assert abs(loss.item() - ref_loss) < 1e-5
    print("ok")
