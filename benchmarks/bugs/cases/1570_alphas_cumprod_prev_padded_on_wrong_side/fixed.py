import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def extract(a, t, x_shape):
    b, *_ = t.shape
    out = a.gather(-1, t)  # (b,)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))  # (b, 1, 1, 1)


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0, 0.999)


class GaussianDiffusion(nn.Module):
    def __init__(self, denoise_fn, timesteps=1000):
        super().__init__()
        self.denoise_fn = denoise_fn
        betas = cosine_beta_schedule(timesteps)  # (T,)
        alphas = 1.0 - betas
        alphas_cumprod = torch.cumprod(alphas, dim=0)  # (T,)
        alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)  # (T,) abar_{t-1}, abar_{-1} = 1
        self.num_timesteps = timesteps

        to_f32 = lambda v: v.to(torch.float32)
        self.register_buffer("sqrt_recip_alphas_cumprod", to_f32(torch.sqrt(1.0 / alphas_cumprod)))
        self.register_buffer("sqrt_recipm1_alphas_cumprod", to_f32(torch.sqrt(1.0 / alphas_cumprod - 1)))
        posterior_variance = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)
        self.register_buffer("posterior_log_variance_clipped", to_f32(torch.log(posterior_variance.clamp(min=1e-20))))
        self.register_buffer("posterior_mean_coef1", to_f32(betas * torch.sqrt(alphas_cumprod_prev) / (1.0 - alphas_cumprod)))
        self.register_buffer("posterior_mean_coef2", to_f32((1.0 - alphas_cumprod_prev) * torch.sqrt(alphas) / (1.0 - alphas_cumprod)))

    def predict_start_from_noise(self, x_t, t, noise):
        # x_t, noise: (b, c, h, w)   t: (b,)
        return (extract(self.sqrt_recip_alphas_cumprod, t, x_t.shape) * x_t
                - extract(self.sqrt_recipm1_alphas_cumprod, t, x_t.shape) * noise)

    def q_posterior(self, x_start, x_t, t):
        # mean and log-variance of q(x_{t-1} | x_t, x_0), each (b, c, h, w) / (b, 1, 1, 1)
        posterior_mean = (extract(self.posterior_mean_coef1, t, x_t.shape) * x_start
                          + extract(self.posterior_mean_coef2, t, x_t.shape) * x_t)
        posterior_log_variance = extract(self.posterior_log_variance_clipped, t, x_t.shape)
        return posterior_mean, posterior_log_variance

    def p_mean_variance(self, x, t):
        x_recon = self.predict_start_from_noise(x, t, self.denoise_fn(x, t)).clamp(-1.0, 1.0)
        return self.q_posterior(x_recon, x, t)


class Eps(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 1)

    def forward(self, x, t):
        return self.conv(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    diffusion = GaussianDiffusion(Eps(), timesteps=1000)
    x_start = torch.rand(3, 3, 8, 8) * 2 - 1
    x_t = torch.randn(3, 3, 8, 8)
    t = torch.tensor([0, 500, 999])
    mean, log_var = diffusion.q_posterior(x_start, x_t, t)

    betas = cosine_beta_schedule(1000).tolist()
    abar, prod = [], 1.0
    for beta in betas:
        prod *= 1.0 - beta
        abar.append(prod)
    for b in range(3):
        tb = int(t[b])
        a_prev = abar[tb - 1] if tb > 0 else 1.0
        c1 = betas[tb] * math.sqrt(a_prev) / (1.0 - abar[tb])
        c2 = (1.0 - a_prev) * math.sqrt(1.0 - betas[tb]) / (1.0 - abar[tb])
        ref = c1 * x_start[b] + c2 * x_t[b]
        assert torch.allclose(mean[b], ref, atol=1e-4)
    assert torch.allclose(mean[0], x_start[0], atol=1e-4)
    print("ok")
