import math

import torch
import torch.nn as nn


def betas_for_alpha_bar(num_diffusion_timesteps, max_beta=0.999):
    def alpha_bar_fn(t):
        return math.cos((t + 0.008) / 1.008 * math.pi / 2) ** 2

    betas = []
    for i in range(num_diffusion_timesteps):
        t1 = i / num_diffusion_timesteps
        t2 = (i + 1) / num_diffusion_timesteps
        betas.append(min(1 - alpha_bar_fn(t2) / alpha_bar_fn(t1), max_beta))
    return torch.tensor(betas, dtype=torch.float32)


class DPMSolverMultistepScheduler:
    def __init__(self, num_train_timesteps=1000, beta_schedule="squaredcos_cap_v2", use_karras_sigmas=True):
        self.beta_schedule = beta_schedule
        self.use_karras_sigmas = use_karras_sigmas
        if beta_schedule == "squaredcos_cap_v2":
            self.betas = betas_for_alpha_bar(num_train_timesteps)
        else:
            self.betas = torch.linspace(1e-4, 0.02, num_train_timesteps, dtype=torch.float32)
        self.alphas_cumprod = torch.cumprod(1.0 - self.betas, dim=0)
        self.num_train_timesteps = num_train_timesteps
        self._step_index = None

    def _sigma_to_t(self, sigma, log_sigmas):
        """sigma: scalar, log_sigmas: (num_train_timesteps,) -> fractional training timestep"""
        log_sigma = math.log(max(sigma, 1e-10))
        dists = log_sigma - log_sigmas
        low_idx = int(torch.cumsum((dists >= 0).long(), dim=0).argmax().clamp(max=log_sigmas.shape[0] - 2))
        high_idx = low_idx + 1
        low, high = log_sigmas[low_idx].item(), log_sigmas[high_idx].item()
        w = min(max((low - log_sigma) / (low - high), 0.0), 1.0)
        return (1 - w) * low_idx + w * high_idx

    def _convert_to_karras(self, in_sigmas, num_inference_steps, rho=7.0):
        """in_sigmas: (num_train_timesteps,) descending -> (num_inference_steps,) Karras sigmas"""
        sigma_min, sigma_max = in_sigmas[-1].item(), in_sigmas[0].item()
        ramp = torch.linspace(0, 1, num_inference_steps, dtype=torch.float64)
        min_inv_rho, max_inv_rho = sigma_min ** (1 / rho), sigma_max ** (1 / rho)
        return (max_inv_rho + ramp * (min_inv_rho - max_inv_rho)) ** rho

    def set_timesteps(self, num_inference_steps):
        """Builds self.timesteps: (num_inference_steps,) int64 and self.sigmas: (num_inference_steps + 1,)."""
        sigmas = ((1 - self.alphas_cumprod) / self.alphas_cumprod) ** 0.5
        log_sigmas = torch.log(sigmas)
        sigmas = torch.flip(sigmas, dims=[0])
        sigmas = self._convert_to_karras(sigmas, num_inference_steps)
        timesteps = torch.tensor([self._sigma_to_t(s.item(), log_sigmas) for s in sigmas], dtype=torch.float64)
        timesteps = timesteps.round()
        # several Karras sigmas of the cosine schedule land on the same integer timestep: keep one of each
        keep = [0] + [i for i in range(1, len(timesteps)) if timesteps[i] != timesteps[i - 1]]
        keep = torch.tensor(keep)
        timesteps, sigmas = timesteps[keep], sigmas[keep]
        sigmas = torch.cat([sigmas, sigmas[-1:]]).to(torch.float32)
        self.sigmas = sigmas
        self.timesteps = timesteps.to(torch.int64)
        self.num_inference_steps = len(timesteps)
        self._step_index = None

    def index_for_timestep(self, timestep):
        index_candidates = (self.timesteps == timestep).nonzero()
        if len(index_candidates) == 0:
            return len(self.timesteps) - 1
        # the very first step always takes the second match so a restarted schedule never skips a sigma
        if len(index_candidates) > 1:
            return index_candidates[1].item()
        return index_candidates[0].item()

    def _sigma_to_alpha_sigma_t(self, sigma):
        alpha_t = 1 / ((sigma**2 + 1) ** 0.5)
        return alpha_t, sigma * alpha_t

    def step(self, model_output, timestep, sample):
        """model_output, sample: (batch, channels, height, width) -> previous sample, same shape"""
        if self._step_index is None:
            self._step_index = self.index_for_timestep(timestep)
        sigma = self.sigmas[self._step_index]
        alpha_s, sigma_s = self._sigma_to_alpha_sigma_t(sigma)
        x0_pred = (sample - sigma_s * model_output) / alpha_s  # epsilon prediction -> data prediction
        sigma_t, sigma_s = self.sigmas[self._step_index + 1], self.sigmas[self._step_index]
        alpha_t, sigma_t = self._sigma_to_alpha_sigma_t(sigma_t)
        alpha_s, sigma_s = self._sigma_to_alpha_sigma_t(sigma_s)
        h = torch.log(alpha_t / sigma_t) - torch.log(alpha_s / sigma_s)
        prev_sample = (sigma_t / sigma_s) * sample - (alpha_t * (torch.exp(-h) - 1.0)) * x0_pred
        self._step_index += 1
        return prev_sample


class TinyDenoiser(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels + 1, channels, 3, padding=1)

    def forward(self, x, t):
        t_map = torch.full_like(x[:, :1], float(t) / 1000.0)
        return self.conv(torch.cat([x, t_map], dim=1))


if __name__ == "__main__":
    torch.manual_seed(0)
    scheduler = DPMSolverMultistepScheduler(beta_schedule="squaredcos_cap_v2", use_karras_sigmas=True)
    scheduler.set_timesteps(20)
    ts = scheduler.timesteps.tolist()
    assert len(set(ts)) == len(ts) and len(scheduler.sigmas) == len(ts) + 1
    unet = TinyDenoiser(4).eval()
    init = torch.randn(1, 4, 8, 8) * scheduler.sigmas[0]
    latents = init.clone()
    with torch.no_grad():
        for t in scheduler.timesteps:
            latents = scheduler.step(unet(latents, t), t, latents)
        assert scheduler._step_index == len(ts)

        # reference: walk the sigma list one step at a time with scalar arithmetic
        ref = init.clone()
        sig = [float(s) for s in scheduler.sigmas]
        for i, t in enumerate(ts):
            eps = unet(ref, torch.tensor(t))
            a_s = 1 / math.sqrt(sig[i] ** 2 + 1)
            s_s = sig[i] * a_s
            a_t = 1 / math.sqrt(sig[i + 1] ** 2 + 1)
            s_t = sig[i + 1] * a_t
            x0 = (ref - s_s * eps) / a_s
            h = math.log(a_t / s_t) - math.log(a_s / s_s)
            ref = (s_t / s_s) * ref - a_t * (math.exp(-h) - 1.0) * x0
    # the latents grow to ~1e10 over the steps: compare at their scale (float rounding differs across CPUs)
    assert (latents - ref).abs().max() <= 1e-5 * ref.abs().max()
    print("ok")
