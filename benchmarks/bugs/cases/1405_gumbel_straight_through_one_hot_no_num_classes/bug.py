import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor, distributions


class GumbelSoftmax(distributions.RelaxedOneHotCategorical):
    """Relaxed one-hot categorical whose rsample is a straight-through hard one-hot."""

    def sample(self, sample_shape=torch.Size()) -> Int[Tensor, "*batch"]:
        u = torch.empty(self.logits.size(), device=self.logits.device).uniform_(0, 1)
        noisy_logits = self.logits - torch.log(-torch.log(u))
        return torch.argmax(noisy_logits, dim=-1)

    def rsample(self, sample_shape=torch.Size()) -> Float[Tensor, "*batch n_actions"]:
        rout = super().rsample(sample_shape)  # differentiable relaxed sample
        out = F.one_hot(torch.argmax(rout, dim=-1)).float()
        return (out - rout).detach() + rout


class Actor(nn.Module):
    def __init__(self, state_dim: int, n_actions: int, hidden: int = 64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(state_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, states: Float[Tensor, "batch state_dim"]) -> Float[Tensor, "batch n_actions"]:
        return self.body(states)


class Critic(nn.Module):
    def __init__(self, state_dim: int, n_actions: int, hidden: int = 64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(state_dim + n_actions, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(
        self, states: Float[Tensor, "batch state_dim"], actions: Float[Tensor, "batch n_actions"]
    ) -> Float[Tensor, "batch"]:
        return self.body(torch.cat([states, actions], dim=-1)).squeeze(-1)


def policy_loss(
    actor: Actor, critic: Critic, states: Float[Tensor, "batch state_dim"], temperature: float
) -> Float[Tensor, ""]:
    logits = actor(states)
    pd = GumbelSoftmax(temperature=torch.tensor(temperature), logits=logits)
    actions = pd.rsample()  # (batch, n_actions), hard one-hot forward, soft gradient
    return -critic(states, actions).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    actor, critic = Actor(state_dim=10, n_actions=6), Critic(state_dim=10, n_actions=6)
    with torch.no_grad():
        actor.body[-1].bias.copy_(torch.tensor([4.0, 3.0, 0.0, -6.0, -6.0, -6.0]))
    states = torch.randn(8, 10)
    loss = policy_loss(actor, critic, states, temperature=0.5)
    loss.backward()
    print("policy loss:", loss.item())
