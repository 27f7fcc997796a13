import torch
import torch.nn as nn
import torch.nn.functional as F


class DDPMScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        self.config = type("Config", (), {"num_train_timesteps": num_train_timesteps})()
        betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def add_noise(self, original_samples, noise, timesteps):
        sqrt_alpha_prod = self.alphas_cumprod[timesteps] ** 0.5
        sqrt_one_minus_alpha_prod = (1 - self.alphas_cumprod[timesteps]) ** 0.5
        while sqrt_alpha_prod.ndim < original_samples.ndim:
            sqrt_alpha_prod = sqrt_alpha_prod.unsqueeze(-1)
            sqrt_one_minus_alpha_prod = sqrt_one_minus_alpha_prod.unsqueeze(-1)
        return sqrt_alpha_prod * original_samples + sqrt_one_minus_alpha_prod * noise


class SketchAdapter(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 4, 3, padding=1))

    def forward(self, sketch):
        return self.body(sketch)


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.time_embed = nn.Embedding(1000, 4)
        self.conv_in = nn.Conv2d(4, 8, 3, padding=1)
        self.conv_out = nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, noisy_latents, timesteps, adapter_features):
        h = self.conv_in(noisy_latents + self.time_embed(timesteps)[:, :, None, None]) + self.conv_in(adapter_features)
        return self.conv_out(F.silu(h))


def train_step(unet, adapter, noise_scheduler, optimizer, latents, sketches, generator):
    noise = torch.randn(latents.shape, generator=generator)
    bsz = latents.shape[0]
    # cubic sampling to sample a random timestep for each image, biased towards the noisy end
    timesteps = torch.rand((bsz,), generator=generator)
    timesteps = (1 - timesteps ** 3) * noise_scheduler.config.num_train_timesteps
    timesteps = timesteps.long()
    noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)
    model_pred = unet(noisy_latents, timesteps, adapter(sketches))
    loss = F.mse_loss(model_pred, noise)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item(), timesteps


if __name__ == "__main__":
    torch.manual_seed(0)
    unet, adapter, noise_scheduler = TinyUNet(), SketchAdapter(), DDPMScheduler(num_train_timesteps=1000)
    optimizer = torch.optim.AdamW(adapter.parameters(), lr=1e-4)
    generator = torch.Generator().manual_seed(3)
    losses = []
    for step in range(8):
        latents, sketches = torch.randn(64, 4, 8, 8), torch.rand(64, 1, 8, 8)
        loss, timesteps = train_step(unet, adapter, noise_scheduler, optimizer, latents, sketches, generator)
        losses.append(round(loss, 4))
    print("losses:", losses)
