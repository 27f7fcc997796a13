from dataclasses import dataclass

import torch
from jaxtyping import Float, Int
from torch import Tensor


@dataclass
class Schedule:
    beta: Float[Tensor, "T"]
    alpha_bar: Float[Tensor, "T"]


def make_schedule(timesteps: int) -> Schedule:
    beta = torch.linspace(1e-4, 0.02, timesteps)
    return Schedule(beta=beta, alpha_bar=torch.cumprod(1.0 - beta, dim=0))


def unsqueeze3x(x: Float[Tensor, "B"]) -> Float[Tensor, "B 1 1 1"]:
    return x[:, None, None, None]


def predict_x0(
    xt: Float[Tensor, "B C H W"], eps: Float[Tensor, "B C H W"], t: Int[Tensor, "B"], s: Schedule
) -> Float[Tensor, "B C H W"]:
    ab = unsqueeze3x(s.alpha_bar[t])
    return ((xt - (1 - ab).sqrt() * eps) / ab.sqrt()).clamp(-1, 1)


def ddim_sample(model, xT: Float[Tensor, "B C H W"], s: Schedule, num_steps: int) -> Float[Tensor, "B C H W"]:
    T = s.alpha_bar.numel()
    steps = torch.linspace(T - 1, 0, num_steps).round()
    xt = xT
    for i, step in enumerate(steps):
        t = torch.full((xt.size(0),), step.item())
        eps = model(xt, t)
        x0 = predict_x0(xt, eps, t, s)
        if i + 1 < len(steps):
            ab_next = s.alpha_bar[int(steps[i + 1])]
            xt = ab_next.sqrt() * x0 + (1 - ab_next).sqrt() * eps
        else:
            xt = x0
    return xt


class TinyEps(torch.nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = torch.nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x, t):
        return self.conv(x) * (t.float()[:, None, None, None] / 1000.0)


if __name__ == "__main__":
    torch.manual_seed(0)
    sched = make_schedule(1000)
    model = TinyEps(3)
    with torch.no_grad():
        out = ddim_sample(model, torch.randn(2, 3, 8, 8), sched, num_steps=10)
    print("sample mean", out.mean().item())
