import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class CategoricalQHead(nn.Module):
    def __init__(self, obs_dim, num_actions, num_atoms, v_min, v_max):
        super().__init__()
        self.num_actions = num_actions
        self.num_atoms = num_atoms
        self.net = nn.Linear(obs_dim, num_actions * num_atoms)
        self.register_buffer("support", torch.linspace(v_min, v_max, num_atoms))

    def forward(self, obs: Float[Tensor, "batch obs"]) -> Float[Tensor, "batch actions atoms"]:
        logits = self.net(obs).view(obs.size(0), self.num_actions, self.num_atoms)
        return F.softmax(logits, dim=-1)

    def q_values(self, probs: Float[Tensor, "batch actions atoms"]) -> Float[Tensor, "batch actions"]:
        return (probs * self.support).sum(dim=-1)


def taken_action_dist(
    probs: Float[Tensor, "batch actions atoms"], actions: Int[Tensor, "batch"]
) -> Float[Tensor, "batch atoms"]:
    index = actions.view(-1, 1, 1).expand(-1, 1, probs.size(-1))
    return probs.gather(1, index).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    head = CategoricalQHead(obs_dim=8, num_actions=3, num_atoms=11, v_min=-5.0, v_max=5.0)
    obs = torch.randn(4, 8)
    actions = torch.tensor([0, 2, 1, 2])
    probs = head(obs)
    dist = taken_action_dist(probs, actions)
    logits = head.net(obs).view(4, 3, 11)
    import math
    for b in range(4):
        a = actions[b].item()
        row = logits[b, a].tolist()
        m = max(row)
        ex = [math.exp(v - m) for v in row]
        z = sum(ex)
        for k in range(11):
            assert abs(dist[b, k].item() - ex[k] / z) < 1e-6
    print("ok")
