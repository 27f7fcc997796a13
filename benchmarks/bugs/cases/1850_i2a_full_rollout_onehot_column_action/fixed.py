"""Imagination core of an I2A agent: roll the environment model forward for every action."""
import torch
import torch.nn as nn


class EnvModel(nn.Module):
    def __init__(self, in_shape, num_actions, num_rewards=3):
        super().__init__()
        channels, height, width = in_shape
        self.conv = nn.Conv2d(channels + num_actions, 8, kernel_size=3, padding=1)
        self.state_head = nn.Conv2d(8, channels, kernel_size=1)
        self.reward_head = nn.Linear(8 * height * width, num_rewards)

    def forward(self, inputs):
        h = torch.relu(self.conv(inputs))
        return torch.sigmoid(self.state_head(h)), self.reward_head(h.flatten(1))


class ImaginationCore:
    def __init__(self, num_rollouts, in_shape, num_actions, env_model):
        self.num_rollouts = num_rollouts
        self.in_shape = in_shape
        self.num_actions = num_actions
        self.env_model = env_model

    def __call__(self, state):
        batch_size = state.size(0)
        # full rollout: imagine one trajectory per action for every state in the batch
        state = state.unsqueeze(0).repeat(self.num_actions, 1, 1, 1, 1).view(-1, *self.in_shape)
        action = torch.LongTensor([[i] for i in range(self.num_actions)] * batch_size)
        rollout_batch_size = batch_size * self.num_actions

        onehot_planes, rollout_states = [], []
        for _ in range(self.num_rollouts):
            onehot_action = torch.zeros(rollout_batch_size, self.num_actions, *self.in_shape[1:])
            onehot_action[range(rollout_batch_size), action.view(-1)] = 1
            inputs = torch.cat([state, onehot_action], 1)
            with torch.no_grad():
                state, reward = self.env_model(inputs)
            onehot_planes.append(onehot_action)
            rollout_states.append(state)
        return torch.stack(onehot_planes), torch.stack(rollout_states)


if __name__ == "__main__":
    torch.manual_seed(0)
    in_shape, num_actions = (1, 5, 5), 4
    core = ImaginationCore(2, in_shape, num_actions, EnvModel(in_shape, num_actions))
    frames = torch.rand(2, *in_shape)
    onehots, states = core(frames)
    actions = [i for _ in range(2) for i in range(num_actions)]
    for step in range(onehots.shape[0]):
        for row, a in enumerate(actions):
            for k in range(num_actions):
                expected = 1.0 if k == a else 0.0
                assert torch.all(onehots[step, row, k] == expected)
    print("ok")
