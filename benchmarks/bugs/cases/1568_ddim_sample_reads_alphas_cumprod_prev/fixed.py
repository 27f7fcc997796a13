import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


def extract(a: Float[Tensor, "T"], t: Int[Tensor, "b"], x_shape) -> Float[Tensor, "b 1 1 1"]:
    b, *_ = t.shape
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))


class EpsModel(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv = nn.Conv2d(channels + 1, channels, 3, padding=1)

    def forward(self, x: Float[Tensor, "b c h w"], t: Int[Tensor, "b"]) -> Float[Tensor, "b c h w"]:
        tt = (t.float() / 1000.0).view(-1, 1, 1, 1).expand(-1, 1, *x.shape[-2:])
        return self.conv(torch.cat([x, tt], dim=1))


class GaussianDiffusion(nn.Module):
    def __init__(self, model: nn.Module, timesteps: int = 100, sampling_timesteps: int = 10):
        super().__init__()
        self.model = model
        self.num_timesteps = timesteps
        self.sampling_timesteps = sampling_timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.register_buffer("alphas_cumprod", alphas_cumprod)
        self.register_buffer("alphas_cumprod_prev", F.pad(alphas_cumprod[:-1], (1, 0), value=1.0))

    def predict_start_from_noise(
        self, x_t: Float[Tensor, "b c h w"], t: Int[Tensor, "b"], noise: Float[Tensor, "b c h w"]
    ) -> Float[Tensor, "b c h w"]:
        a_t = extract(self.alphas_cumprod, t, x_t.shape)
        return (x_t - (1 - a_t).sqrt() * noise) / a_t.sqrt()

    def ddim_step(
        self, img: Float[Tensor, "b c h w"], time: int, time_next: int, eta: float = 0.0
    ) -> Float[Tensor, "b c h w"]:
        b = img.shape[0]
        time_cond = torch.full((b,), time, dtype=torch.long)
        next_cond = torch.full((b,), time_next, dtype=torch.long)
        pred_noise = self.model(img, time_cond)
        x_start = self.predict_start_from_noise(img, time_cond, pred_noise).clamp(-1.0, 1.0)

        alpha = extract(self.alphas_cumprod, time_cond, img.shape)
        alpha_next = extract(self.alphas_cumprod, next_cond, img.shape)

        sigma = eta * ((1 - alpha / alpha_next) * (1 - alpha_next) / (1 - alpha)).sqrt()
        c = (1 - alpha_next - sigma ** 2).sqrt()
        return x_start * alpha_next.sqrt() + c * pred_noise

    @torch.no_grad()
    def ddim_sample(self, img: Float[Tensor, "b c h w"]) -> Float[Tensor, "b c h w"]:
        times = torch.linspace(-1, self.num_timesteps - 1, steps=self.sampling_timesteps + 1).int().tolist()
        times = list(reversed(times))
        for time, time_next in zip(times[:-1], times[1:]):
            if time_next < 0:
                b = img.shape[0]
                t = torch.full((b,), time, dtype=torch.long)
                img = self.predict_start_from_noise(img, t, self.model(img, t)).clamp(-1.0, 1.0)
            else:
                img = self.ddim_step(img, time, time_next)
        return img


if __name__ == "__main__":
    torch.manual_seed(0)
    diffusion = GaussianDiffusion(EpsModel(channels=3), timesteps=100, sampling_timesteps=10)
    x = torch.randn(2, 3, 8, 8)
    with torch.no_grad():
        for time, time_next in [(99, 89), (49, 39), (9, 0)]:
            out = diffusion.ddim_step(x, time, time_next)
            eps = diffusion.model(x, torch.full((2,), time))
            for b in range(2):
                a = float(diffusion.alphas_cumprod[time])
                a_next = float(diffusion.alphas_cumprod[time_next])
                x0 = ((x[b] - (1 - a) ** 0.5 * eps[b]) / a ** 0.5).clamp(-1, 1)
                ref = x0 * a_next ** 0.5 + (1 - a_next) ** 0.5 * eps[b]
                assert torch.allclose(out[b], ref, atol=1e-5)
        assert diffusion.ddim_sample(torch.randn(2, 3, 8, 8)).shape == (2, 3, 8, 8)
    print("ok")
