import torch
import torch.nn as nn


class DDIMScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=1e-4, beta_end=2e-2, set_alpha_to_one=True):
        self.num_train_timesteps = num_train_timesteps
        betas = torch.linspace(beta_start, beta_end, num_train_timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.final_alpha_cumprod = torch.tensor(1.0) if set_alpha_to_one else self.alphas_cumprod[0]
        self.num_inference_steps = None
        self.timesteps = torch.arange(num_train_timesteps).flip(0)

    def set_timesteps(self, num_inference_steps):
        self.num_inference_steps = num_inference_steps
        step_ratio = self.num_train_timesteps // num_inference_steps
        self.timesteps = (torch.arange(0, num_inference_steps) * step_ratio).flip(0)

    def reversed_step(self, model_output, timestep, sample):
        # 1. get next step value (=t+1)
        next_timestep = timestep + self.num_train_timesteps // self.num_inference_steps

        # 2. compute alphas, betas at timestep t+1
        alpha_prod_t = self.alphas_cumprod[timestep]
        alpha_prod_t_next = self.alphas_cumprod[next_timestep] if next_timestep >= 0 else self.final_alpha_cumprod
        beta_prod_t = 1 - alpha_prod_t

        # 3. predicted x_0 and "direction pointing to x_t+1"
        pred_original_sample = (sample - beta_prod_t**0.5 * model_output) / alpha_prod_t**0.5
        pred_sample_direction = (1 - alpha_prod_t_next) ** 0.5 * model_output
        pred_next_sample = alpha_prod_t_next**0.5 * pred_original_sample + pred_sample_direction
        return pred_next_sample, pred_original_sample


class EpsilonPredictor(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x, t):
        return torch.tanh(self.conv(x)) * (1.0 + t.float() / 1000.0)


@torch.no_grad()
def invert(model, scheduler, image):
    latent = image
    for t in reversed(scheduler.timesteps):
        latent, _ = scheduler.reversed_step(model(latent, t), t, latent)
    return latent


if __name__ == "__main__":
    torch.manual_seed(0)
    model = EpsilonPredictor(1)
    scheduler = DDIMScheduler(num_train_timesteps=1000)
    scheduler.set_timesteps(num_inference_steps=50)
    image = torch.randn(2, 1, 16, 16)
    noise = invert(model, scheduler, image)
    print("inverted noise std:", noise.std().item())
