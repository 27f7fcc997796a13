import torch
from jaxtyping import Float, Int
from torch import Tensor


def extract(a: Float[Tensor, "T"], t: Int[Tensor, "batch"], x_shape: torch.Size) -> Float[Tensor, "batch ..."]:
    out = a.gather(-1, t)
    return out.reshape(t.size(0), *((1,) * (len(x_shape) - 1)))


class DDPMScheduler:
    def __init__(self, num_train_timesteps: int = 100, beta_start: float = 1e-4, beta_end: float = 0.02):
        self.betas = torch.linspace(beta_start, beta_end, num_train_timesteps)
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)
        prev = torch.cat([torch.ones(1), self.alphas_cumprod[:-1]])
        self.posterior_variance = self.betas * (1.0 - prev) / (1.0 - self.alphas_cumprod)
        self.coef_x0 = self.betas * prev.sqrt() / (1.0 - self.alphas_cumprod)
        self.coef_xt = (1.0 - prev) * self.alphas.sqrt() / (1.0 - self.alphas_cumprod)

    def add_noise(
        self, x0: Float[Tensor, "batch c h w"], noise: Float[Tensor, "batch c h w"], t: Int[Tensor, "batch"]
    ) -> Float[Tensor, "batch c h w"]:
        sqrt_ac = extract(self.alphas_cumprod.sqrt(), t, x0.shape)
        sqrt_om = extract((1.0 - self.alphas_cumprod).sqrt(), t, x0.shape)
        return sqrt_ac * x0 + sqrt_om * noise

    def posterior_mean(
        self, x0: Float[Tensor, "batch c h w"], xt: Float[Tensor, "batch c h w"], t: Int[Tensor, "batch"]
    ) -> Float[Tensor, "batch c h w"]:
        return extract(self.coef_x0, t, xt.shape) * x0 + extract(self.coef_xt, t, xt.shape) * xt


if __name__ == "__main__":
    torch.manual_seed(0)
    sched = DDPMScheduler()
    x0 = torch.randn(4, 3, 5, 5)
    noise = torch.randn_like(x0)
    t = torch.tensor([0, 17, 63, 99])
    xt = sched.add_noise(x0, noise, t)
    mean = sched.posterior_mean(x0, xt, t)
    for b in range(4):
        ac = sched.alphas_cumprod[t[b]]
        assert torch.allclose(xt[b], ac.sqrt() * x0[b] + (1 - ac).sqrt() * noise[b], atol=1e-6)
        ref = sched.coef_x0[t[b]] * x0[b] + sched.coef_xt[t[b]] * xt[b]
        assert torch.allclose(mean[b], ref, atol=1e-6)
    print("ok")
