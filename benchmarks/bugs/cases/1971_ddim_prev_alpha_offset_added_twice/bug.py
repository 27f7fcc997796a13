import math

import numpy as np
import torch
from torch import nn


class DDIMScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012, set_alpha_to_one=True):
        self.num_train_timesteps = num_train_timesteps
        self.betas = torch.linspace(beta_start**0.5, beta_end**0.5, num_train_timesteps, dtype=torch.float64) ** 2
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)
        self.final_alpha_cumprod = torch.tensor(1.0, dtype=torch.float64) if set_alpha_to_one else self.alphas_cumprod[0]
        self.num_inference_steps = None
        self._offset = 0
        self.timesteps = np.arange(0, num_train_timesteps)[::-1].copy()

    def set_timesteps(self, num_inference_steps, offset=0):
        self.num_inference_steps = num_inference_steps
        self._offset = offset
        step_ratio = self.num_train_timesteps // self.num_inference_steps
        self.timesteps = np.arange(0, self.num_train_timesteps, step_ratio)[::-1].copy()
        self.timesteps += offset

    def step(self, model_output, timestep, sample):
        prev_timestep = timestep - self.num_train_timesteps // self.num_inference_steps

        alpha_prod_t = self.alphas_cumprod[timestep]
        alpha_prod_t_prev = self.alphas_cumprod[prev_timestep + self._offset] if prev_timestep >= 0 else self.final_alpha_cumprod
        beta_prod_t = 1 - alpha_prod_t

        pred_original_sample = (sample - beta_prod_t**0.5 * model_output) / alpha_prod_t**0.5
        pred_sample_direction = (1 - alpha_prod_t_prev) ** 0.5 * model_output
        return alpha_prod_t_prev**0.5 * pred_original_sample + pred_sample_direction


class NoisePredictor(nn.Module):
    """Stand-in for the UNet: a fixed linear denoiser with a timestep bias."""

    def __init__(self, channels=4):
        super().__init__()
        self.mix = nn.Conv2d(channels, channels, 1).double()
        self.time_scale = nn.Parameter(torch.tensor(0.002, dtype=torch.float64))

    def forward(self, x, t):
        return torch.tanh(self.mix(x) + self.time_scale * float(t))


@torch.no_grad()
def sample(unet, scheduler, latents, num_inference_steps=10):
    # Stable Diffusion was trained with steps_offset = 1
    scheduler.set_timesteps(num_inference_steps, offset=1)
    for t in scheduler.timesteps:
        noise_pred = unet(latents, t)
        latents = scheduler.step(noise_pred, t, latents)
    return latents


def reference_sample(unet, latents, num_inference_steps=10, num_train_timesteps=1000, offset=1):
    betas = [(math.sqrt(0.00085) + i * (math.sqrt(0.012) - math.sqrt(0.00085)) / (num_train_timesteps - 1)) ** 2
             for i in range(num_train_timesteps)]
    acp, prod = [], 1.0
    for b in betas:
        prod *= 1.0 - b
        acp.append(prod)
    step = num_train_timesteps // num_inference_steps
    x = latents.clone()
    for s in reversed(range(0, num_train_timesteps, step)):
        t = s + offset
        eps = unet(x, t)
        a_t = acp[t]
        a_prev = acp[t - step] if t - step >= 0 else 1.0
        x0 = (x - math.sqrt(1 - a_t) * eps) / math.sqrt(a_t)
        x = math.sqrt(a_prev) * x0 + math.sqrt(1 - a_prev) * eps
    return x


if __name__ == "__main__":
    torch.manual_seed(0)
    unet = NoisePredictor()
    scheduler = DDIMScheduler()
    latents = torch.randn(2, 4, 8, 8, dtype=torch.float64)
    out = sample(unet, scheduler, latents)
    with torch.no_grad():
        ref = reference_sample(unet, latents)
    print("alpha_prod_t_prev used at t=101:", scheduler.alphas_cumprod[1 + scheduler._offset].item(),
          "expected:", scheduler.alphas_cumprod[1].item())
    print("max |latents - reference|:", (out - ref).abs().max().item())
