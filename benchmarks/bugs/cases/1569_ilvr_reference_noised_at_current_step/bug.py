import torch
import torch.nn as nn
import torch.nn.functional as F


def extract(arr, timesteps, broadcast_shape):
    res = arr.gather(0, timesteps).float()
    while res.dim() < len(broadcast_shape):
        res = res[..., None]
    return res.expand(broadcast_shape)


class Resizer:
    def __init__(self, factor):
        self.factor = factor

    def down(self, x):
        return F.avg_pool2d(x, self.factor)

    def up(self, x):
        return F.interpolate(x, scale_factor=self.factor, mode="nearest")


class TinyEps(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.conv = nn.Conv2d(cfg["channels"], cfg["channels"], 3, padding=1)

    def forward(self, x, t):
        return self.conv(x) * 0.1


class ILVRDiffusion:
    def __init__(self, cfg):
        betas = torch.linspace(cfg["beta_start"], cfg["beta_end"], cfg["steps"], dtype=torch.float64)
        alphas = 1.0 - betas
        self.betas = betas
        self.alphas_cumprod = torch.cumprod(alphas, dim=0)
        self.alphas_cumprod_prev = torch.cat([torch.ones(1, dtype=torch.float64), self.alphas_cumprod[:-1]])
        self.sqrt_alphas_cumprod = self.alphas_cumprod.sqrt()
        self.sqrt_one_minus_alphas_cumprod = (1.0 - self.alphas_cumprod).sqrt()
        self.posterior_mean_coef1 = betas * self.alphas_cumprod_prev.sqrt() / (1.0 - self.alphas_cumprod)
        self.posterior_mean_coef2 = (1.0 - self.alphas_cumprod_prev) * alphas.sqrt() / (1.0 - self.alphas_cumprod)
        self.num_timesteps = cfg["steps"]

    def q_sample(self, x_start, t, noise):
        return (extract(self.sqrt_alphas_cumprod, t, x_start.shape) * x_start
                + extract(self.sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise)

    def p_mean(self, model, x, t):
        eps = model(x, t)
        x0 = (x - extract(self.sqrt_one_minus_alphas_cumprod, t, x.shape) * eps) / extract(
            self.sqrt_alphas_cumprod, t, x.shape)
        x0 = x0.clamp(-1, 1)
        return extract(self.posterior_mean_coef1, t, x.shape) * x0 + extract(self.posterior_mean_coef2, t, x.shape) * x

    def ilvr_step(self, model, x, t, ref_img, resizer, noise):
        sample = self.p_mean(model, x, t)
        ref_noised = self.q_sample(ref_img, t, noise)
        return sample - resizer.up(resizer.down(sample)) + resizer.up(resizer.down(ref_noised))


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"steps": 50, "beta_start": 1e-4, "beta_end": 0.05, "channels": 3, "down_n": 4}
    diffusion = ILVRDiffusion(cfg)
    model = TinyEps(cfg)
    resizer = Resizer(cfg["down_n"])
    x = torch.randn(2, 3, 16, 16)
    ref = torch.rand(2, 3, 16, 16) * 2 - 1
    noise = torch.zeros_like(ref)
    t = torch.tensor([10, 3])
    with torch.no_grad():
        out = diffusion.ilvr_step(model, x, t, ref, resizer, noise)
    low = resizer.down(out)
    for b in range(2):
        scale_now = diffusion.sqrt_alphas_cumprod[t[b]].item()
        scale_prev = diffusion.sqrt_alphas_cumprod[t[b] - 1].item()
        got = (low[b] / resizer.down(ref)[b]).mean().item()
        print(f"t={int(t[b])}: low-pass ref scale {got:.5f}, sqrt(abar_t)={scale_now:.5f}, sqrt(abar_(t-1))={scale_prev:.5f}")
