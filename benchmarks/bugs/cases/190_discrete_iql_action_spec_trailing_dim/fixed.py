from dataclasses import dataclass

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


@dataclass
class IQLConfig:
    n_obs: int = 3
    n_act: int = 4
    expectile: float = 0.7
    gamma: float = 0.99
    action_shape: tuple = (1,)  # Categorical(n=n_act, shape=(1,)) like the env's action spec


class ReplayBuffer:
    def __init__(self, cfg: IQLConfig, size: int):
        self.obs = torch.randn(size, cfg.n_obs)
        self.next_obs = torch.randn(size, cfg.n_obs)
        self.action = torch.randint(0, cfg.n_act, (size, *cfg.action_shape))
        self.reward = torch.randn(size)
        self.done = torch.zeros(size)

    def sample(self, idx):
        return self.obs[idx], self.action[idx], self.reward[idx], self.next_obs[idx], self.done[idx]


class DiscreteIQLLoss(nn.Module):
    def __init__(self, cfg: IQLConfig):
        super().__init__()
        self.cfg = cfg
        self.qvalue = nn.Linear(cfg.n_obs, cfg.n_act)
        self.value = nn.Linear(cfg.n_obs, 1)

    def chosen_q(
        self, obs: Float[Tensor, "batch n_obs"], action: Int[Tensor, "batch"]
    ) -> Float[Tensor, "batch"]:
        q_all = self.qvalue(obs)
        return q_all.gather(-1, action.reshape(-1, 1)).squeeze(-1)  # action may carry the spec's (1,) dim

    def forward(self, obs, action, reward, next_obs, done) -> Float[Tensor, ""]:
        q = self.chosen_q(obs, action)
        v = self.value(obs).squeeze(-1)
        diff = q.detach() - v
        weight = torch.where(diff > 0, self.cfg.expectile, 1 - self.cfg.expectile)
        value_loss = (weight * diff.pow(2)).mean()
        with torch.no_grad():
            target = reward + self.cfg.gamma * (1 - done) * self.value(next_obs).squeeze(-1)
        qvalue_loss = (q - target).pow(2).mean()
        return value_loss + qvalue_loss


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = IQLConfig()
    buffer = ReplayBuffer(cfg, size=32)
    loss_fn = DiscreteIQLLoss(cfg)
    batch = buffer.sample(torch.randint(0, 32, (8,)))
    loss = loss_fn(*batch)
    obs, action, reward, next_obs, done = batch
    with torch.no_grad():
        q_all, v_all, v_next = loss_fn.qvalue(obs), loss_fn.value(obs)[:, 0], loss_fn.value(next_obs)[:, 0]
        value_terms, q_terms = [], []
        for i in range(8):
            q = q_all[i, int(action[i, 0])]
            d = q - v_all[i]
            value_terms.append((cfg.expectile if d > 0 else 1 - cfg.expectile) * d ** 2)
            q_terms.append((q - (reward[i] + cfg.gamma * (1 - done[i]) * v_next[i])) ** 2)
        ref = torch.stack(value_terms).mean() + torch.stack(q_terms).mean()
    assert torch.allclose(loss, ref, atol=1e-5)
    print("ok")
