import torch


def make_beta_schedule(n_timestep, linear_start=1e-4, linear_end=2e-2):
    return torch.linspace(linear_start ** 0.5, linear_end ** 0.5, n_timestep, dtype=torch.float64) ** 2


def make_ddim_timesteps(num_ddim_timesteps, num_ddpm_timesteps):
    """Uniformly spaced DDIM timesteps.

    Args:
        num_ddim_timesteps (int): number of sampling steps requested by the user.
        num_ddpm_timesteps (int): length of the training schedule.

    Returns:
        torch.LongTensor of shape (num_ddim_timesteps,) with the timesteps used for sampling.
    """
    c = num_ddpm_timesteps // num_ddim_timesteps
    ddim_timesteps = torch.arange(0, num_ddpm_timesteps, c)
    # add one to get the final alpha values right (the ones from first scale to data during sampling)
    steps_out = ddim_timesteps + 1
    return steps_out


def make_ddim_sampling_parameters(alphacums, ddim_timesteps, eta):
    """Select the cumulative alphas the sampler needs.

    Args:
        alphacums (torch.Tensor): shape (num_ddpm_timesteps,), cumulative product of (1 - beta).
        ddim_timesteps (torch.LongTensor): shape (S,), timesteps returned by make_ddim_timesteps.
        eta (float): DDIM stochasticity.

    Returns:
        tuple of three tensors of shape (S,): alphas, alphas_prev, sigmas.
    """
    alphas = alphacums[ddim_timesteps]
    alphas_prev = torch.cat([alphacums[:1], alphacums[ddim_timesteps[:-1]]])
    sigmas = eta * torch.sqrt((1 - alphas_prev) / (1 - alphas) * (1 - alphas / alphas_prev))
    return alphas, alphas_prev, sigmas


class DDIMSampler:
    def __init__(self, num_train_timesteps=1000):
        betas = make_beta_schedule(num_train_timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.num_train_timesteps = num_train_timesteps

    def make_schedule(self, ddim_num_steps, ddim_eta=0.0):
        self.ddim_timesteps = make_ddim_timesteps(ddim_num_steps, self.num_train_timesteps)
        self.ddim_alphas, self.ddim_alphas_prev, self.ddim_sigmas = make_ddim_sampling_parameters(
            self.alphas_cumprod, self.ddim_timesteps, ddim_eta
        )
        return self


if __name__ == "__main__":
    sampler = DDIMSampler(num_train_timesteps=1000)
    sampler.make_schedule(ddim_num_steps=1000, ddim_eta=0.0)
    print("timesteps:", sampler.ddim_timesteps[:3].tolist(), "...", sampler.ddim_timesteps[-3:].tolist())
    print("alphas:", sampler.ddim_alphas[:3].tolist())
