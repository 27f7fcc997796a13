import torch
import torch.nn as nn


class DDIMScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        self.num_train_timesteps = num_train_timesteps
        betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def add_noise(self, original_samples, noise, timestep):
        t = timestep.long()
        alpha_prod = self.alphas_cumprod[t].view(-1, 1, 1, 1)
        return alpha_prod.sqrt() * original_samples + (1 - alpha_prod).sqrt() * noise

    def training_target(self, sample, noise, timestep):
        return noise


class TinyDenoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.t_embed = nn.Linear(1, 4)

    def forward(self, x, t):
        return self.conv(x) + self.t_embed(t.float().view(-1, 1) / 1000).view(-1, 4, 1, 1)


def training_step(model, scheduler, latents, dtype):
    noise = torch.randn_like(latents)
    timestep = torch.randint(900, scheduler.num_train_timesteps, (latents.size(0),)).to(dtype)
    noisy = scheduler.add_noise(latents, noise, timestep)
    pred = model(noisy.to(torch.float32), timestep)
    return ((pred - scheduler.training_target(latents, noise, timestep)) ** 2).mean()


def main():
    torch.manual_seed(0)
    scheduler = DDIMScheduler()
    model = TinyDenoiser()
    latents = torch.randn(16, 4, 8, 8, dtype=torch.bfloat16)
    loss = training_step(model, scheduler, latents, dtype=torch.bfloat16)
    print("loss:", loss.item())


if __name__ == "__main__":
    main()
