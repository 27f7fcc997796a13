import torch


def make_beta_schedule(n_timestep, linear_start=0.00085, linear_end=0.012):
    """Scaled-linear beta schedule.

    Args:
        n_timestep (int): number of diffusion steps T.

    Returns:
        Tensor of shape (T,) with the betas.
    """
    return torch.linspace(linear_start ** 0.5, linear_end ** 0.5, n_timestep, dtype=torch.float64) ** 2


def make_ddim_timesteps(num_ddim_timesteps, num_ddpm_timesteps):
    """Uniformly spaced DDIM timesteps.

    Args:
        num_ddim_timesteps (int): number of sampling steps S requested by the user.
        num_ddpm_timesteps (int): length T of the training schedule.

    Returns:
        LongTensor of shape (S,) with the timesteps used for sampling.
    """
    c = num_ddpm_timesteps // num_ddim_timesteps
    ddim_timesteps = torch.arange(0, num_ddpm_timesteps, c)
    # add one to get the final alpha values right (the ones from first scale to data during sampling)
    return ddim_timesteps + 1


def make_ddim_sampling_parameters(alphas_cumprod, ddim_timesteps, eta=0.0):
    """Select the cumulative alphas used by the DDIM sampler.

    Args:
        alphas_cumprod (Tensor): shape (T,), cumulative product of (1 - beta_t).
        ddim_timesteps (LongTensor): shape (S,), indices into ``alphas_cumprod``.
        eta (float): DDIM stochasticity.

    Returns:
        alphas, alphas_prev, sigmas: tensors of shape (S,).
    """
    alphas = alphas_cumprod[ddim_timesteps]
    alphas_prev = torch.cat([alphas_cumprod[:1], alphas_cumprod[ddim_timesteps[:-1]]])
    sigmas = eta * ((1 - alphas_prev) / (1 - alphas) * (1 - alphas / alphas_prev)).sqrt()
    return alphas, alphas_prev, sigmas


def ddim_schedule(steps, num_ddpm_timesteps):
    """Build the DDIM schedule for ``steps`` sampling steps.

    Args:
        steps (int): sampling steps requested in the UI.
        num_ddpm_timesteps (int): length T of the model's training schedule.

    Returns:
        (timesteps, alphas, alphas_prev, sigmas), each of shape (S,).
    """
    betas = make_beta_schedule(num_ddpm_timesteps)
    alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
    timesteps = make_ddim_timesteps(steps, num_ddpm_timesteps)
    return (timesteps, *make_ddim_sampling_parameters(alphas_cumprod, timesteps)), alphas_cumprod


if __name__ == "__main__":
    torch.manual_seed(0)
    (timesteps, alphas, alphas_prev, sigmas), alphas_cumprod = ddim_schedule(27, 1000)
    print("timesteps:", timesteps.tolist()[-3:], "alphas[-1]:", alphas[-1].item())
