import torch
import torch.nn as nn


def make_beta_schedule(n_timestep, linear_start=1e-4, linear_end=2e-2):
    return torch.linspace(linear_start**0.5, linear_end**0.5, n_timestep, dtype=torch.float64) ** 2


def make_ddim_timesteps(num_ddim_timesteps, num_ddpm_timesteps):
    c = num_ddpm_timesteps // num_ddim_timesteps
    return torch.arange(0, num_ddpm_timesteps, c) + 1


class LatentEpsModel(nn.Module):
    def __init__(self, channels, num_timesteps, cond_dim):
        super().__init__()
        self.time_embed = nn.Embedding(num_timesteps, channels)
        self.cond_proj = nn.Linear(cond_dim, channels)
        self.net = nn.Sequential(nn.Conv2d(channels, channels, 3, padding=1), nn.SiLU(), nn.Conv2d(channels, channels, 3, padding=1))

    def apply_model(self, x_noisy, t, cond):
        emb = self.time_embed(t) + self.cond_proj(cond)
        return self.net(x_noisy + emb[:, :, None, None])


class DDIMSampler:
    def __init__(self, model, ddpm_num_timesteps):
        self.model = model
        self.ddpm_num_timesteps = ddpm_num_timesteps
        betas = make_beta_schedule(ddpm_num_timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0).float()

    def make_schedule(self, ddim_num_steps):
        self.ddim_timesteps = make_ddim_timesteps(ddim_num_steps, self.ddpm_num_timesteps)
        self.ddim_alphas = self.alphas_cumprod[self.ddim_timesteps]
        self.ddim_alphas_prev = torch.cat([self.alphas_cumprod[:1], self.alphas_cumprod[self.ddim_timesteps[:-1]]])

    @torch.no_grad()
    def encode(self, x0, c, t_enc):
        num_steps = t_enc
        alphas_next = self.ddim_alphas[:num_steps]
        alphas = self.ddim_alphas_prev[:num_steps]
        x_next = x0
        for i in range(num_steps):
            t = torch.full((x0.shape[0],), i, device=x0.device, dtype=torch.long)
            noise_pred = self.model.apply_model(x_next, t, c)
            xt_weighted = (alphas_next[i] / alphas[i]).sqrt() * x_next
            weighted_noise_pred = alphas_next[i].sqrt() * ((1 / alphas_next[i] - 1).sqrt() - (1 / alphas[i] - 1).sqrt()) * noise_pred
            x_next = xt_weighted + weighted_noise_pred
        return x_next


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"channels": 4, "num_timesteps": 1000, "cond_dim": 8, "ddim_steps": 25, "batch": 2, "latent_hw": 8}
    model = LatentEpsModel(cfg["channels"], cfg["num_timesteps"], cfg["cond_dim"])
    sampler = DDIMSampler(model, ddpm_num_timesteps=cfg["num_timesteps"])
    sampler.make_schedule(ddim_num_steps=cfg["ddim_steps"])
    seen = []
    model.time_embed.register_forward_hook(lambda m, inp, out: seen.append(inp[0][0].item()))
    latents = torch.randn(cfg["batch"], cfg["channels"], cfg["latent_hw"], cfg["latent_hw"])
    cond = torch.randn(cfg["batch"], cfg["cond_dim"])
    inverted = sampler.encode(latents, cond, t_enc=10)
    print("timesteps fed to the eps model:", seen)
    print("DDIM timesteps of those steps: ", sampler.ddim_timesteps[:10].tolist())
