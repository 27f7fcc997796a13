import numpy as np
import torch
from torch import nn


def make_beta_schedule(n_timestep, linear_start=1e-4, linear_end=2e-2):
    betas = torch.linspace(linear_start ** 0.5, linear_end ** 0.5, n_timestep, dtype=torch.float64) ** 2
    return betas.numpy()


def make_ddim_timesteps(num_ddim_timesteps, num_ddpm_timesteps):
    c = num_ddpm_timesteps // num_ddim_timesteps
    ddim_timesteps = np.asarray(list(range(0, num_ddpm_timesteps, c)))
    return ddim_timesteps + 1


def make_ddim_sampling_parameters(alphacums, ddim_timesteps, eta):
    alphas = alphacums[ddim_timesteps]
    alphas_prev = np.asarray([alphacums[0]] + alphacums[ddim_timesteps[:-1]].tolist())
    sigmas = eta * np.sqrt((1 - alphas_prev) / (1 - alphas) * (1 - alphas / alphas_prev))
    return sigmas, alphas, alphas_prev


def extract_into_tensor(a, t, x_shape):
    b, *_ = t.shape
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))


class LatentDiffusion(nn.Module):
    def __init__(self, num_timesteps=1000):
        super().__init__()
        self.num_timesteps = num_timesteps
        betas = make_beta_schedule(num_timesteps)
        alphas_cumprod = np.cumprod(1.0 - betas, axis=0)
        self.register_buffer('alphas_cumprod', torch.tensor(alphas_cumprod, dtype=torch.float32))
        self.unet = nn.Conv2d(4, 4, 3, padding=1)

    def apply_model(self, x, t, c):
        return self.unet(x + c)


class DDIMSampler:
    def __init__(self, model):
        self.model = model
        self.ddpm_num_timesteps = model.num_timesteps

    def make_schedule(self, ddim_num_steps, ddim_eta=0.0):
        self.ddim_timesteps = make_ddim_timesteps(ddim_num_steps, self.ddpm_num_timesteps)
        alphas_cumprod = self.model.alphas_cumprod
        to_torch = lambda x: torch.as_tensor(x, dtype=torch.float32)
        sigmas, alphas, alphas_prev = make_ddim_sampling_parameters(
            alphacums=alphas_cumprod.cpu().numpy().astype(np.float64), ddim_timesteps=self.ddim_timesteps, eta=ddim_eta)
        self.ddim_sigmas = to_torch(sigmas)
        self.ddim_alphas = to_torch(alphas)
        self.ddim_alphas_prev = to_torch(alphas_prev)
        self.ddim_sqrt_one_minus_alphas = to_torch(np.sqrt(1.0 - alphas))

    @torch.no_grad()
    def stochastic_encode(self, x0, t, noise=None):
        # t serves as an index to gather the correct alphas
        sqrt_alphas_cumprod = torch.sqrt(self.ddim_alphas)
        sqrt_one_minus_alphas_cumprod = self.ddim_sqrt_one_minus_alphas
        if noise is None:
            noise = torch.randn_like(x0)
        return (extract_into_tensor(sqrt_alphas_cumprod, t, x0.shape) * x0 +
                extract_into_tensor(sqrt_one_minus_alphas_cumprod, t, x0.shape) * noise)

    @torch.no_grad()
    def p_sample_ddim(self, x, c, t, index):
        b = x.shape[0]
        e_t = self.model.apply_model(x, t, c)
        a_t = torch.full((b, 1, 1, 1), self.ddim_alphas[index].item())
        a_prev = torch.full((b, 1, 1, 1), self.ddim_alphas_prev[index].item())
        sigma_t = torch.full((b, 1, 1, 1), self.ddim_sigmas[index].item())
        sqrt_one_minus_at = torch.full((b, 1, 1, 1), self.ddim_sqrt_one_minus_alphas[index].item())
        pred_x0 = (x - sqrt_one_minus_at * e_t) / a_t.sqrt()
        dir_xt = (1.0 - a_prev - sigma_t ** 2).sqrt() * e_t
        noise = sigma_t * torch.randn_like(x)
        x_prev = a_prev.sqrt() * pred_x0 + dir_xt + noise
        return x_prev, pred_x0

    @torch.no_grad()
    def decode(self, x_latent, cond, t_start):
        timesteps = self.ddim_timesteps[:t_start]
        time_range = np.flip(timesteps)
        total_steps = timesteps.shape[0]
        x_dec = x_latent
        for i, step in enumerate(time_range):
            index = total_steps - i - 1
            ts = torch.full((x_latent.shape[0],), int(step), dtype=torch.long)
            x_dec, _ = self.p_sample_ddim(x_dec, cond, ts, index=index)
        return x_dec


def img2img(sampler, init_latent, c, strength, ddim_steps, noise):
    sampler.make_schedule(ddim_num_steps=ddim_steps, ddim_eta=0.0)
    batch_size = init_latent.shape[0]
    t_enc = int(strength * ddim_steps)
    z_enc = sampler.stochastic_encode(init_latent, torch.tensor([t_enc - 1] * batch_size), noise=noise)
    return sampler.decode(z_enc, c, t_enc)


class PerfectNoisePredictor(LatentDiffusion):
    """Test double: returns exactly the noise that was mixed into the latent."""

    def __init__(self, noise):
        super().__init__()
        self.noise = noise

    def apply_model(self, x, t, c):
        return self.noise


if __name__ == "__main__":
    torch.manual_seed(0)
    init_latent = torch.randn(2, 4, 8, 8)
    cond = torch.zeros(2, 4, 8, 8)
    noise = torch.randn(2, 4, 8, 8)

    sampler = DDIMSampler(PerfectNoisePredictor(noise))
    samples = img2img(sampler, init_latent, cond, strength=0.3, ddim_steps=10, noise=noise)
    # with a perfect noise predictor DDIM lands on the clean latent (up to the last alpha_prev)
    a0 = sampler.ddim_alphas_prev[0]
    expected = a0.sqrt() * init_latent + (1 - a0).sqrt() * noise
    assert torch.allclose(samples, expected, atol=1e-5)

    # reference: the same img2img written as a plain loop over the DDIM steps
    model = LatentDiffusion()
    sampler = DDIMSampler(model)
    for strength in (0.3, 0.75, 1.0):
        samples = img2img(sampler, init_latent, cond, strength=strength, ddim_steps=10, noise=noise)
        t_enc = int(strength * 10)
        alphas = sampler.ddim_alphas.tolist()
        alphas_prev = sampler.ddim_alphas_prev.tolist()
        steps = sampler.ddim_timesteps.tolist()
        start = t_enc - 1                      # first DDIM step that decode runs
        x = alphas[start] ** 0.5 * init_latent + (1 - alphas[start]) ** 0.5 * noise
        for index in range(start, -1, -1):
            t = torch.full((2,), steps[index], dtype=torch.long)
            with torch.no_grad():
                e_t = model.apply_model(x, t, cond)
            pred_x0 = (x - (1 - alphas[index]) ** 0.5 * e_t) / alphas[index] ** 0.5
            x = alphas_prev[index] ** 0.5 * pred_x0 + (1 - alphas_prev[index]) ** 0.5 * e_t
        assert torch.allclose(samples, x, atol=1e-4), strength
    print("ok")
