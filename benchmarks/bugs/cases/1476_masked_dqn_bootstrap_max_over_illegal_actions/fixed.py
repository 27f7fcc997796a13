from typing import NamedTuple

import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor


class Act(NamedTuple):
    logits: Float[Tensor, "batch n_act"]
    act: Int[Tensor, " batch"]


class QNet(nn.Module):
    def __init__(self, obs_dim: int, n_act: int):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_act))

    def forward(self, obs: Float[Tensor, "batch obs"]) -> Float[Tensor, "batch n_act"]:
        return self.body(obs)


class DQNPolicy:
    """DQN without a target network for turn-based games with a per-state legal-action mask."""

    def __init__(self, model: QNet, gamma: float = 0.99):
        self.model = model
        self.gamma = gamma

    @staticmethod
    def compute_q_value(
        logits: Float[Tensor, "batch n_act"], mask: Bool[Tensor, "batch n_act"]
    ) -> Float[Tensor, "batch n_act"]:
        # the masked q value should be smaller than logits.min()
        min_value = logits.min() - logits.max() - 1.0
        return logits + (~mask).float() * min_value

    def forward(self, obs: Float[Tensor, "batch obs"], mask: Bool[Tensor, "batch n_act"]) -> Act:
        logits = self.model(obs)
        q = self.compute_q_value(logits, mask)
        return Act(logits=logits, act=q.argmax(dim=1))

    @torch.no_grad()
    def _target_q(self, batch: dict) -> Float[Tensor, " batch"]:
        result = self.forward(batch["obs_next"], batch["mask_next"])
        return result.logits.gather(1, result.act.unsqueeze(1)).squeeze(1)

    @torch.no_grad()
    def td_target(self, batch: dict) -> Float[Tensor, " batch"]:
        return batch["rew"] + self.gamma * (1.0 - batch["done"]) * self._target_q(batch)


def sample_batch(n: int, obs_dim: int, n_act: int) -> dict:
    mask_next = torch.rand(n, n_act) < 0.4
    mask_next[torch.arange(n), torch.randint(n_act, (n,))] = True  # at least one legal move
    return {
        "obs_next": torch.randn(n, obs_dim),
        "mask_next": mask_next,
        "rew": torch.randn(n),
        "done": (torch.rand(n) < 0.1).float(),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    policy = DQNPolicy(QNet(obs_dim=10, n_act=9))
    batch = sample_batch(64, obs_dim=10, n_act=9)
    target = policy.td_target(batch)
    with torch.no_grad():
        q_next = policy.model(batch["obs_next"])
    ref = torch.empty(64)
    for i in range(64):
        legal = [a for a in range(9) if batch["mask_next"][i, a]]
        best = max(q_next[i, a].item() for a in legal)
        ref[i] = batch["rew"][i] + 0.99 * (1.0 - batch["done"][i]) * best
    assert torch.allclose(target, ref, atol=1e-5)
    print("ok")
