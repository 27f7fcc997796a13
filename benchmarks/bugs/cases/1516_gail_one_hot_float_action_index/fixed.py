from functools import partial

import torch
import torch.nn as nn


def one_hot(val: torch.Tensor, num: int) -> torch.Tensor:
    # val: (*)  ->  (*, num)
    old_shape = val.shape
    val_reshape = val.reshape(-1, 1)  # (N, 1)
    ret = torch.zeros(val_reshape.shape[0], num, device=val.device)  # (N, num)
    ret.scatter_(1, val_reshape, 1)
    return ret.reshape(*old_shape, num)


def concat_state_action_pairs(data, action_size=None, one_hot_=False):
    """Flatten each transition's observation and append its (one-hot) action."""
    states_data, actions_data = [], []
    for item in data:
        states_data.append(item["obs"].flatten())  # (C*H*W,)
        if one_hot_ and action_size:
            action = one_hot(torch.Tensor(item["action"]).long(), action_size).squeeze(dim=0)  # (A,)
            actions_data.append(action)
        else:
            actions_data.append(item["action"])
    states = torch.stack(states_data, dim=0)  # (B, C*H*W)
    actions = torch.stack(actions_data, dim=0)  # (B, A)
    return torch.cat([states, actions], dim=-1)  # (B, C*H*W + A)


class GailDiscriminator(nn.Module):
    def __init__(self, obs_dim: int, action_size: int, hidden: int = 32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + action_size, hidden), nn.LeakyReLU(), nn.Linear(hidden, 1))

    def forward(self, x):  # x: (B, obs_dim + A)
        return torch.sigmoid(self.net(x)).squeeze(-1)  # (B,)


if __name__ == "__main__":
    torch.manual_seed(0)
    action_size = 6
    obs_shape = (3, 4, 4)
    transitions = [
        {"obs": torch.randn(*obs_shape), "action": [int(a)]} for a in torch.randint(0, action_size, (5,))
    ]
    make_pairs = partial(concat_state_action_pairs, action_size=action_size, one_hot_=True)
    disc = GailDiscriminator(3 * 4 * 4, action_size)
    pairs = make_pairs(transitions)
    with torch.no_grad():
        rewards = disc(pairs)
    for b, item in enumerate(transitions):
        obs = item["obs"].flatten().tolist()
        act = [1.0 if k == item["action"][0] else 0.0 for k in range(action_size)]
        assert pairs[b].tolist() == obs + act
    assert rewards.shape == (5,)
    print("ok")
