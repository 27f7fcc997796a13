import torch

SCHEDULER_CONFIG = {
    "num_train_timesteps": 1000,
    "beta_start": 0.0001,
    "beta_end": 0.02,
    "timestep_spacing": "linspace",
}


class DDIMScheduler:
    def __init__(self, config):
        self.config = config
        betas = torch.linspace(config["beta_start"], config["beta_end"], config["num_train_timesteps"])
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.final_alpha_cumprod = torch.tensor(1.0)
        self.timesteps = None
        self.num_inference_steps = None

    def set_timesteps(self, num_inference_steps):
        self.num_inference_steps = num_inference_steps
        n = self.config["num_train_timesteps"]
        if self.config["timestep_spacing"] == "linspace":
            steps = torch.linspace(0, n - 1, num_inference_steps).round().flip(0).long()
        else:
            steps = (torch.arange(0, num_inference_steps) * (n // num_inference_steps)).flip(0)
        self.timesteps = steps

    def step(self, model_output, timestep, sample):
        step_index = int((self.timesteps == timestep).nonzero()[0])
        prev_timestep = int(self.timesteps[step_index + 1]) if step_index + 1 < len(self.timesteps) else -1
        alpha_prod_t = self.alphas_cumprod[timestep]
        alpha_prod_t_prev = self.alphas_cumprod[prev_timestep] if prev_timestep >= 0 else self.final_alpha_cumprod
        pred_x0 = (sample - (1 - alpha_prod_t).sqrt() * model_output) / alpha_prod_t.sqrt()
        return alpha_prod_t_prev.sqrt() * pred_x0 + (1 - alpha_prod_t_prev).sqrt() * model_output


def sample(scheduler, model, shape, num_steps):
    scheduler.set_timesteps(num_steps)
    x = torch.randn(shape)
    used = []
    for t in scheduler.timesteps:
        eps = model(x, t)
        x = scheduler.step(eps, t, x)
        used.append(int(t))
    return x, used


def main():
    torch.manual_seed(0)
    scheduler = DDIMScheduler(SCHEDULER_CONFIG)
    model = lambda x, t: 0.1 * x
    x, used = sample(scheduler, model, (2, 3, 4, 4), num_steps=10)
    torch.manual_seed(0)
    ref = torch.randn(2, 3, 4, 4).double()
    ac = scheduler.alphas_cumprod.double()
    for i, t in enumerate(used):
        a_t = float(ac[t])
        a_prev = float(ac[used[i + 1]]) if i + 1 < len(used) else 1.0
        eps = 0.1 * ref
        x0 = (ref - (1 - a_t) ** 0.5 * eps) / a_t ** 0.5
        ref = a_prev ** 0.5 * x0 + (1 - a_prev) ** 0.5 * eps
    assert torch.allclose(x.double(), ref, rtol=1e-4, atol=1e-4), (x.std().item(), ref.std().item())
    print("ok")


if __name__ == "__main__":
    main()
