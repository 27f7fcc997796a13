import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int


class Actor(nn.Module):
    def __init__(self, state_dim: int, action_dim: int, hidden: int = 32):
        super().__init__()
        self.l1 = nn.Linear(state_dim, hidden)
        self.l2 = nn.Linear(hidden, action_dim)

    def pi(self, s: Float[torch.Tensor, "... state"], softmax_dim: int = 0) -> Float[torch.Tensor, "... action"]:
        return F.softmax(self.l2(torch.tanh(self.l1(s))), dim=softmax_dim)


def ppo_ratio(actor: Actor,
              s: Float[torch.Tensor, "batch state"],
              a: Int[torch.Tensor, "batch 1"],
              old_prob_a: Float[torch.Tensor, "batch 1"]) -> Float[torch.Tensor, "batch 1"]:
    prob = actor.pi(s)
    prob_a = prob.gather(1, a)
    return prob_a / old_prob_a


if __name__ == "__main__":
    torch.manual_seed(0)
    actor = Actor(4, 3)
    s = torch.randn(16, 4)
    with torch.no_grad():
        old = torch.stack([actor.pi(s[i]) for i in range(16)])
        a = torch.multinomial(old, 1)
        old_prob_a = old.gather(1, a)
        ratio = ppo_ratio(actor, s, a, old_prob_a)
    print("ratio:", ratio.squeeze(1))
