import math

import torch
import torch.nn as nn


def cosine_gammas(n_timestep, s=0.008):
    steps = torch.arange(n_timestep + 1, dtype=torch.float32) / n_timestep
    f = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
    return (f[1:] / f[0]).clamp(1e-5, 0.9999)


class Denoiser(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.net = nn.Conv2d(2 * channels + 1, channels, 3, padding=1)

    def forward(self, x, noise_level):
        level = noise_level.view(-1, 1, 1, 1).expand(-1, 1, *x.shape[-2:])
        return torch.tanh(self.net(torch.cat([x, level], dim=1)))


class DiffusionGenerator(nn.Module):
    def __init__(self, denoise_fn, n_timestep):
        super().__init__()
        self.denoise_fn = denoise_fn
        gammas = cosine_gammas(n_timestep)
        self.register_buffer("gammas", gammas)
        self.register_buffer("gammas_prev", torch.cat([torch.ones(1), gammas[:-1]]))

    def extract(self, a, t, x_shape=(1, 1, 1, 1)):
        b, *_ = t.shape
        out = a.gather(-1, t)
        return out.reshape(b, *((1,) * (len(x_shape) - 1)))

    def ddim_step(self, y_t, y_cond, t, prevt, eta=0.5):
        noise_level = self.extract(self.gammas, t, x_shape=(1, 1))
        y_0_hat = self.denoise_fn(torch.cat([y_cond, y_t], dim=1), noise_level).clamp(-1.0, 1.0)

        gamma_t = self.extract(self.gammas, t, x_shape=y_t.shape)
        gamma_prevt = self.extract(self.gammas_prev, prevt + 1, x_shape=y_t.shape)

        sigma = eta * torch.sqrt((1 - gamma_prevt) / (1 - gamma_t) * (1 - gamma_t / gamma_prevt))
        coef_eps = torch.sqrt((1 - gamma_prevt - sigma ** 2).clamp(min=0))
        model_mean = (
            torch.sqrt(gamma_prevt) * (y_t - torch.sqrt(1.0 - gamma_t) * y_0_hat) / torch.sqrt(gamma_t)
            + coef_eps * y_0_hat
        )
        return model_mean, sigma


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = DiffusionGenerator(Denoiser(channels=3), n_timestep=100)
    y_cond = torch.randn(2, 3, 16, 16)
    y_t = torch.randn(2, 3, 16, 16)
    t = torch.tensor([60, 35])
    prevt = torch.tensor([50, 25])
    with torch.no_grad():
        mean, sigma = gen.ddim_step(y_t, y_cond, t, prevt)
        assert mean.shape == y_t.shape
        for b in range(2):
            g_t = float(gen.gammas[t[b]])
            g_p = float(gen.gammas_prev[prevt[b] + 1])
            x0 = gen.denoise_fn(torch.cat([y_cond[b:b + 1], y_t[b:b + 1]], 1), torch.tensor([g_t])).clamp(-1, 1)[0]
            s = 0.5 * math.sqrt((1 - g_p) / (1 - g_t) * (1 - g_t / g_p))
            c = math.sqrt(max(1 - g_p - s ** 2, 0.0))
            ref = math.sqrt(g_p) * (y_t[b] - math.sqrt(1 - g_t) * x0) / math.sqrt(g_t) + c * x0
            assert torch.allclose(mean[b], ref, atol=1e-5)
            assert abs(float(sigma[b].flatten()[0]) - s) < 1e-5
    print("ok")
