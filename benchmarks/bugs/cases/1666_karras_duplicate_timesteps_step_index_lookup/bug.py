import torch


class KarrasImg2ImgScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012, rho=7.0):
        betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps, dtype=torch.float64) ** 2
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.train_sigmas = ((1 - alphas_cumprod) / alphas_cumprod) ** 0.5   # [T_train]
        self.log_sigmas = self.train_sigmas.log()                              # [T_train]
        self.rho = rho

    def _sigma_to_t(self, sigma):
        # sigma: [S] -> fractional train timestep by interpolating in log-sigma
        log_sigma = sigma.log()
        high = torch.searchsorted(self.log_sigmas, log_sigma).clamp(1, len(self.log_sigmas) - 1)  # [S]
        low = high - 1
        w = (log_sigma - self.log_sigmas[low]) / (self.log_sigmas[high] - self.log_sigmas[low])
        return low + w.clamp(0, 1)

    def set_timesteps(self, num_inference_steps):
        s_min, s_max = self.train_sigmas[0].item(), self.train_sigmas[-1].item()
        ramp = torch.linspace(0, 1, num_inference_steps, dtype=torch.float64)
        sigmas = (s_max ** (1 / self.rho) + ramp * (s_min ** (1 / self.rho) - s_max ** (1 / self.rho))) ** self.rho
        self.timesteps = self._sigma_to_t(sigmas).round().long()               # [S]
        self.sigmas = torch.cat([sigmas, sigmas.new_zeros(1)]).float()         # [S + 1]

    def add_noise(self, original, noise, timesteps):
        # original, noise: [B, C, H, W]; timesteps: [B]
        schedule_timesteps = self.timesteps
        step_indices = [(schedule_timesteps == t).nonzero().item() for t in timesteps]
        sigma = self.sigmas[step_indices].flatten()                             # [B]
        return original + noise * sigma[:, None, None, None]


def img2img_start(scheduler, latents, strength, num_inference_steps, generator):
    scheduler.set_timesteps(num_inference_steps)
    init_steps = min(int(num_inference_steps * strength), num_inference_steps)
    t_start = num_inference_steps - init_steps
    timesteps = scheduler.timesteps[t_start:]
    latent_timestep = timesteps[:1].repeat(latents.shape[0])
    noise = torch.randn(latents.shape, generator=generator)
    return scheduler.add_noise(latents, noise, latent_timestep), timesteps


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    scheduler = KarrasImg2ImgScheduler()
    latents = torch.randn(2, 4, 8, 8, generator=g)
    noisy, timesteps = img2img_start(scheduler, latents, strength=0.1, num_inference_steps=100, generator=g)
    print("denoising timesteps:", timesteps.tolist())
    print("noisy latent std:", noisy.std().item())
