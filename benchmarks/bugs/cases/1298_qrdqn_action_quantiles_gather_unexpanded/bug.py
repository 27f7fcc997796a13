import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class QuantileNetwork(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int, n_quantiles: int):
        super().__init__()
        self.n_actions, self.n_quantiles = n_actions, n_quantiles
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions * n_quantiles))

    def forward(self, obs: Float[Tensor, "batch obs"]) -> Float[Tensor, "batch quantiles actions"]:
        return self.net(obs).view(-1, self.n_quantiles, self.n_actions)


def action_quantiles(
    quantiles: Float[Tensor, "batch quantiles actions"], actions: Int[Tensor, "batch 1"]
) -> Float[Tensor, "batch quantiles"]:
    index = actions[..., None].long()
    return torch.gather(quantiles, dim=2, index=index).squeeze(2)


def quantile_huber_loss(
    current: Float[Tensor, "batch quantiles"], target: Float[Tensor, "batch quantiles"]
) -> Float[Tensor, ""]:
    n = current.shape[-1]
    tau = (torch.arange(n, dtype=torch.float) + 0.5) / n
    delta = target.unsqueeze(-2) - current.unsqueeze(-1)
    huber = torch.where(delta.abs() <= 1, 0.5 * delta ** 2, delta.abs() - 0.5)
    return ((tau.view(1, -1, 1) - (delta.detach() < 0).float()).abs() * huber).sum(-2).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    net = QuantileNetwork(obs_dim=6, n_actions=4, n_quantiles=25)
    obs = torch.randn(16, 6)
    actions = torch.randint(0, 4, (16, 1))
    with torch.no_grad():
        quantiles = net(obs)
        current = action_quantiles(quantiles, actions)
        ref = torch.tensor([[quantiles[b, q, actions[b, 0]].item() for q in range(25)] for b in range(16)])
    print("current quantiles shape:", tuple(current.shape), "expected:", tuple(ref.shape))
    print("first row:", current[0, :4].tolist(), "reference:", ref[0, :4].tolist())
