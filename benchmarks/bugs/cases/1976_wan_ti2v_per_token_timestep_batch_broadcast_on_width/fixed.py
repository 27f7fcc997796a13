import math

import torch
from torch import Tensor, nn
from jaxtyping import Float


def sinusoidal_embedding(t: Float[Tensor, "*shape"], dim: int) -> Float[Tensor, "*shape d"]:
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
    args = t[..., None].float() * freqs
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class WanConditionTransformer(nn.Module):
    """Tiny Wan2.2-TI2V style DiT: the first latent frame is the clean image condition and
    gets timestep 0, every other token gets the sample's timestep (per-token timesteps)."""

    def __init__(self, in_channels: int = 4, dim: int = 32, patch_size=(1, 2, 2)):
        super().__init__()
        self.patch_size = patch_size
        self.patch_embedding = nn.Conv3d(in_channels, dim, kernel_size=patch_size, stride=patch_size)
        self.time_embedding = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.time_projection = nn.Linear(dim, 2 * dim)
        self.norm = nn.LayerNorm(dim, elementwise_affine=False)
        self.block = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.proj_out = nn.Linear(dim, in_channels * math.prod(patch_size))
        self.dim = dim

    def forward(
        self,
        norm_latents: Float[Tensor, "b c f h w"],
        timestep: Float[Tensor, "b"],
        expand_timesteps: bool = True,
    ) -> Float[Tensor, "b l p"]:
        p_t, p_h, p_w = self.patch_size
        _, _, num_frames, height, width = norm_latents.shape
        post_patch_f, post_patch_h, post_patch_w = num_frames // p_t, height // p_h, width // p_w

        if expand_timesteps:
            first_frame_mask_post = torch.ones(
                1,
                1,
                post_patch_f,
                post_patch_h,
                post_patch_w,
                dtype=norm_latents.dtype,
                device=norm_latents.device,
            )
            first_frame_mask_post[:, :, 0] = 0

            # (B, 1, 1, 1) * (1, post_f, post_h, post_w) -> (B, post_f, post_h, post_w)
            temp_ts = first_frame_mask_post[:, 0] * timestep.view(-1, 1, 1, 1)
            timestep = temp_ts.flatten(1)
        else:
            timestep = timestep[:, None].expand(-1, post_patch_f * post_patch_h * post_patch_w)

        hidden = self.patch_embedding(norm_latents).flatten(2).transpose(1, 2)  # b, l, d
        temb = self.time_embedding(sinusoidal_embedding(timestep, self.dim))    # b, l, d
        shift, scale = self.time_projection(temb).chunk(2, dim=-1)
        hidden = hidden + self.block(self.norm(hidden) * (1 + scale) + shift)
        return self.proj_out(hidden)


def training_step(model, clean_latents, generator):
    """Flow-matching step with the first frame kept clean as the image condition."""
    b = clean_latents.shape[0]
    t = torch.rand(b, generator=generator) * 1000
    noise = torch.randn(clean_latents.shape, generator=generator)
    sigma = (t / 1000).view(-1, 1, 1, 1, 1)
    noisy = (1 - sigma) * clean_latents + sigma * noise
    noisy[:, :, 0] = clean_latents[:, :, 0]
    return model(noisy, t), noisy, t


def reference_token_timesteps(t, f, h, w):
    rows = []
    for b in range(t.shape[0]):
        row = []
        for fi in range(f):
            for _ in range(h * w):
                row.append(0.0 if fi == 0 else t[b].item())
        rows.append(row)
    return torch.tensor(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = WanConditionTransformer()
    gen = torch.Generator().manual_seed(0)
    clean = torch.randn(2, 4, 3, 8, 8, generator=gen)  # batch of 2 latent videos
    with torch.no_grad():
        pred, noisy, t = training_step(model, clean, gen)
        # the batched forward must equal running each sample on its own
        for b in range(clean.shape[0]):
            single = model(noisy[b:b + 1], t[b:b + 1])
            assert torch.allclose(pred[b:b + 1], single, atol=1e-5)
        # and the per-token timesteps must be 0 on the first frame, t elsewhere
        mask = torch.ones(1, 1, 3, 4, 4)
        mask[:, :, 0] = 0
        got = (mask[:, 0] * t.view(-1, 1, 1, 1)).flatten(1)
        assert torch.equal(got, reference_token_timesteps(t, 3, 4, 4))
    print("ok")
