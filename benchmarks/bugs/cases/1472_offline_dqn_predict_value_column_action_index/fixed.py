import numpy as np
import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class DiscreteMeanQFunction(nn.Module):
    def __init__(self, observation_size: int, action_size: int, hidden_units: int = 64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(observation_size, hidden_units), nn.ReLU())
        self.fc = nn.Linear(hidden_units, action_size)

    def forward(self, x: Float[Tensor, "batch obs"]) -> Float[Tensor, "batch action"]:
        return self.fc(self.encoder(x))


class DiscreteQFunctionMixin:
    _q_func: DiscreteMeanQFunction

    @torch.no_grad()
    def predict_value(
        self, x: Float[Tensor, "batch obs"], action: Int[Tensor, "batch 1"]
    ) -> Float[Tensor, " batch"]:
        values = self._q_func(x)
        flat_action = action.reshape(-1)
        return values[torch.arange(0, x.size(0)), flat_action].reshape(-1)

    @torch.no_grad()
    def predict_best_action(self, x: Float[Tensor, "batch obs"]) -> Int[Tensor, " batch"]:
        return self._q_func(x).argmax(dim=1)


class DQNImpl(DiscreteQFunctionMixin):
    def __init__(self, q_func: DiscreteMeanQFunction, gamma: float):
        self._q_func = q_func
        self.gamma = gamma


def evaluate_td_error(algo: DQNImpl, batch: dict) -> float:
    observations = torch.as_tensor(batch["observations"])
    actions = torch.as_tensor(batch["actions"])
    next_observations = torch.as_tensor(batch["next_observations"])
    values = algo.predict_value(observations, actions).numpy()
    next_actions = algo.predict_best_action(next_observations)
    next_values = algo.predict_value(next_observations, next_actions).numpy()
    mask = (1.0 - batch["terminals"]).reshape(-1)
    rewards = batch["rewards"].reshape(-1)
    y = rewards + algo.gamma * next_values * mask
    return float(np.mean((values - y) ** 2))


def sample_transitions(rng: np.random.Generator, n: int, obs_size: int, n_actions: int) -> dict:
    # the replay dataset stores discrete actions as an (N, 1) column, like rewards and terminals
    return {
        "observations": rng.standard_normal((n, obs_size)).astype(np.float32),
        "actions": rng.integers(0, n_actions, size=(n, 1)),
        "rewards": rng.standard_normal((n, 1)).astype(np.float32),
        "next_observations": rng.standard_normal((n, obs_size)).astype(np.float32),
        "terminals": (rng.random((n, 1)) < 0.05).astype(np.float32),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    algo = DQNImpl(DiscreteMeanQFunction(observation_size=4, action_size=2), gamma=0.99)
    batch = sample_transitions(np.random.default_rng(0), n=32, obs_size=4, n_actions=2)
    err = evaluate_td_error(algo, batch)
    with torch.no_grad():
        q = algo._q_func(torch.as_tensor(batch["observations"]))
        q_next = algo._q_func(torch.as_tensor(batch["next_observations"]))
    errors = []
    for i in range(32):
        v = q[i, int(batch["actions"][i, 0])].item()
        best = max(range(2), key=lambda a: q_next[i, a].item())
        y = batch["rewards"][i, 0] + 0.99 * q_next[i, best].item() * (1.0 - batch["terminals"][i, 0])
        errors.append((v - y) ** 2)
    assert abs(err - sum(errors) / len(errors)) < 1e-5, (err, sum(errors) / len(errors))
    print("ok")
