import torch

SCHEDULER_CONFIG = {
    "num_train_timesteps": 1000,
    "beta_start": 0.00085,
    "beta_end": 0.012,
}


class InverseDDIM:
    def __init__(self, config):
        self.config = config
        betas = torch.linspace(config["beta_start"] ** 0.5, config["beta_end"] ** 0.5, config["num_train_timesteps"]) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.timesteps = None
        self.num_inference_steps = None

    def set_timesteps(self, num_inference_steps):
        self.num_inference_steps = num_inference_steps
        ratio = self.config["num_train_timesteps"] // num_inference_steps
        self.timesteps = torch.arange(0, num_inference_steps) * ratio

    def step(self, eps, timestep, sample):
        next_timestep = timestep + self.config["num_train_timesteps"] // self.num_inference_steps
        alpha_t = self.alphas_cumprod[timestep]
        alpha_next = self.alphas_cumprod[next_timestep]
        x0 = (sample - (1 - alpha_t) ** 0.5 * eps) / alpha_t ** 0.5
        return alpha_next ** 0.5 * x0 + (1 - alpha_next) ** 0.5 * eps


def fake_eps(sample, t):
    return 0.1 * sample + 0.001 * t


def invert(scheduler, latent, steps):
    scheduler.set_timesteps(steps)
    for t in scheduler.timesteps:
        latent = scheduler.step(fake_eps(latent, float(t)), t, latent)
    return latent


if __name__ == "__main__":
    torch.manual_seed(0)
    scheduler = InverseDDIM(SCHEDULER_CONFIG)
    latent = torch.randn(1, 4, 8, 8)
    noised = invert(scheduler, latent, steps=50)
    print("inverted latent std:", noised.std().item())
