import torch
from torch import nn


class TubeMaskingGenerator:
    """Same spatial mask for every temporal slice (VideoMAE-style tube masking)."""

    def __init__(self, input_size, mask_ratio):
        self.frames, self.height, self.width = input_size
        self.num_patches_per_frame = self.height * self.width
        self.num_masks_per_frame = int(mask_ratio * self.num_patches_per_frame)

    def __call__(self, batch_size, generator=None):
        masks = []
        for _ in range(batch_size):
            per_frame = torch.zeros(self.num_patches_per_frame, dtype=torch.bool)
            per_frame[torch.randperm(self.num_patches_per_frame, generator=generator)[: self.num_masks_per_frame]] = True
            masks.append(per_frame.repeat(self.frames))
        return torch.stack(masks)  # (B, N), True = masked


class VideoPretrainEncoder(nn.Module):
    def __init__(self, img_size=32, patch_size=8, num_frames=8, tubelet_size=2, embed_dim=48):
        super().__init__()
        self.patch_embed = nn.Conv3d(3, embed_dim, kernel_size=(tubelet_size, patch_size, patch_size),
                                     stride=(tubelet_size, patch_size, patch_size))
        num_patches = (num_frames // tubelet_size) * (img_size // patch_size) ** 2
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches + 1, embed_dim) * 0.02)
        self.norm = nn.LayerNorm(embed_dim)

    def embed_tokens(self, x):
        x = self.patch_embed(x)                       # (B, C, T', H', W')
        x = x.flatten(2).transpose(1, 2)              # (B, N, C)
        cls_tokens = self.cls_token.expand(x.size(0), -1, -1)
        x = torch.cat((cls_tokens, x), dim=1)         # (B, N + 1, C)
        return x + self.pos_embed

    def forward_features(self, x, mask):
        # x: (B, 3, T, H, W), mask: (B, N) with True = masked
        x = self.embed_tokens(x)
        B, _, C = x.shape
        x_vis = x[~mask].reshape(B, -1, C)            # ~mask means visible
        return self.norm(x_vis)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = VideoPretrainEncoder()
    video = torch.randn(2, 3, 8, 32, 32)
    mask_gen = TubeMaskingGenerator((4, 4, 4), mask_ratio=0.75)
    mask = mask_gen(batch_size=2)
    x_vis = model.forward_features(video, mask)
    print("visible tokens:", tuple(x_vis.shape))
