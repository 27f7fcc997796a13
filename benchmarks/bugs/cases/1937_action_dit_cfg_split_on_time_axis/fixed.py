import math

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class TimestepEmbedder(nn.Module):
    def __init__(self, hidden: int, freq_dim: int = 32):
        super().__init__()
        self.freq_dim = freq_dim
        self.mlp = nn.Sequential(nn.Linear(freq_dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))

    def forward(self, t: Int[Tensor, " n"]) -> Float[Tensor, "n d"]:
        half = self.freq_dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
        args = t[:, None].float() * freqs[None]
        return self.mlp(torch.cat([torch.cos(args), torch.sin(args)], dim=-1))


class ActionDiT(nn.Module):
    """Diffusion transformer that denoises a chunk of future actions given a cognition feature."""

    def __init__(self, in_channels: int = 7, future_steps: int = 16, hidden: int = 32, depth: int = 2):
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = in_channels
        self.x_embedder = nn.Linear(in_channels, hidden)
        self.t_embedder = TimestepEmbedder(hidden)
        self.z_embedder = nn.Linear(hidden, hidden)
        self.positional_embedding = nn.Parameter(torch.randn(future_steps + 1, hidden) * 0.02)
        layer = nn.TransformerEncoderLayer(hidden, nhead=4, dim_feedforward=2 * hidden, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)
        self.final_layer = nn.Linear(hidden, self.out_channels)

    def forward(self, x: Float[Tensor, "n t c"], t: Int[Tensor, " n"], z: Float[Tensor, "n 1 d"]) -> Float[Tensor, "n t c"]:
        x = self.x_embedder(x)
        c = self.t_embedder(t).unsqueeze(1) + self.z_embedder(z)
        h = torch.cat((c, x), dim=1) + self.positional_embedding
        h = self.blocks(h)
        return self.final_layer(h)[:, 1:, :]

    def forward_with_cfg(self, x: Float[Tensor, "n t c"], t: Int[Tensor, " n"], z: Float[Tensor, "n 1 d"],
                         cfg_scale: float) -> Float[Tensor, "n t c"]:
        half: Float[Tensor, "h t c"] = x[: len(x) // 2]
        combined: Float[Tensor, "n t c"] = torch.cat([half, half], dim=0)
        model_out: Float[Tensor, "n t c"] = self.forward(combined, t, z)
        eps, rest = model_out[:, :, : self.in_channels], model_out[:, :, self.in_channels :]
        cond_eps, uncond_eps = torch.split(eps, len(eps) // 2, dim=0)
        half_eps = uncond_eps + cfg_scale * (cond_eps - uncond_eps)
        eps = torch.cat([half_eps, half_eps], dim=0)
        return torch.cat([eps, rest], dim=2)


@torch.no_grad()
def predict_action(model: ActionDiT, cognition: Float[Tensor, "b 1 d"], uncondition: Float[Tensor, "1 1 d"],
                   noise: Float[Tensor, "b t c"], cfg_scale: float, steps: int = 4) -> Float[Tensor, "b t c"]:
    b = noise.shape[0]
    x = torch.cat([noise, noise], dim=0)
    z = torch.cat([cognition, uncondition.expand(b, -1, -1)], dim=0)
    alphas = torch.linspace(0.2, 0.99, steps)
    for i in reversed(range(steps)):
        t = torch.full((2 * b,), i * 25, dtype=torch.long)
        eps = model.forward_with_cfg(x, t, z, cfg_scale)
        x0 = (x - (1 - alphas[i]).sqrt() * eps) / alphas[i].sqrt()
        x = x0 if i == 0 else alphas[i - 1].sqrt() * x0 + (1 - alphas[i - 1]).sqrt() * eps
    return x[:b]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ActionDiT().eval()
    cognition = torch.randn(2, 1, 32)
    uncondition = torch.randn(1, 1, 32)
    noise = torch.randn(2, 16, 7)
    scale = 1.5
    with torch.no_grad():
        x = torch.cat([noise, noise], dim=0)
        z = torch.cat([cognition, uncondition.expand(2, -1, -1)], dim=0)
        t = torch.full((4,), 75, dtype=torch.long)
        guided = model.forward_with_cfg(x, t, z, cfg_scale=scale)
        raw = model(x, t, z)
    n, steps, channels = raw.shape
    for row in range(n):
        for step in range(steps):
            for ch in range(channels):
                cond = raw[row % (n // 2), step, ch].item()
                uncond = raw[row % (n // 2) + n // 2, step, ch].item()
                expected = uncond + scale * (cond - uncond)
                assert abs(guided[row, step, ch].item() - expected) < 1e-5, (row, step, ch)
    actions = predict_action(model, cognition, uncondition, noise, scale)
    assert actions.shape == noise.shape and torch.isfinite(actions).all()
    print("ok")
