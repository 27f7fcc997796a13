import math

import torch

CFG = {"num_timesteps": 100, "batch_size": 10, "image_size": 16, "t_start": 40}


def cosine_alphas_cumprod(num_timesteps, s=0.008):
    steps = torch.arange(num_timesteps + 1, dtype=torch.float64) / num_timesteps
    f = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
    return (f[1:] / f[0]).clamp(min=1e-5)


def _extract_into_tensor(arr, timesteps, broadcast_shape):
    # arr: [num_timesteps], timesteps: [B] -> [B, 1, 1, 1] expanded to broadcast_shape
    res = arr[timesteps].float()
    while res.dim() < len(broadcast_shape):
        res = res[..., None]
    return res.expand(broadcast_shape)


class GaussianDiffusion:
    def __init__(self, num_timesteps):
        ac = cosine_alphas_cumprod(num_timesteps)
        self.sqrt_alphas_cumprod = ac.sqrt()
        self.sqrt_one_minus_alphas_cumprod = (1 - ac).sqrt()

    def q_sample(self, x_start, t, noise):
        # x_start, noise: [B, C, H, W]; t: [B]
        return (_extract_into_tensor(self.sqrt_alphas_cumprod, t, x_start.shape) * x_start
                + _extract_into_tensor(self.sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise)


def iterate_batches(images, batch_size):
    for i in range(0, images.shape[0], batch_size):
        yield images[i:i + batch_size]


def noise_dataset(diffusion, images, cfg):
    noised = []
    for x in iterate_batches(images, cfg["batch_size"]):
        t = torch.full((cfg["batch_size"],), cfg["t_start"], dtype=torch.long)
        noise = torch.randn_like(x)
        noised.append(diffusion.q_sample(x, t, noise))
    return torch.cat(noised)


if __name__ == "__main__":
    torch.manual_seed(0)
    images = torch.rand(23, 3, CFG["image_size"], CFG["image_size"]) * 2 - 1
    diffusion = GaussianDiffusion(CFG["num_timesteps"])
    out = noise_dataset(diffusion, images, CFG)
    print(out.shape)
