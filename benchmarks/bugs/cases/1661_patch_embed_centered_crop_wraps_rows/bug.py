import math

import torch
import torch.nn as nn


class CroppedPosEmbedPatchifier(nn.Module):
    """Patchify a latent and add a centred crop of a learned square positional-embedding grid.

    Args:
        patch_size (`int`): side of one square patch.
        in_channels (`int`): channels of the latent.
        embed_dim (`int`): width of the patch tokens.
        pos_embed_max_size (`int`): number of positions of the pretrained grid (a perfect square).
    """

    def __init__(self, patch_size=2, in_channels=4, embed_dim=16, pos_embed_max_size=64):
        super().__init__()
        self.patch_size = patch_size
        self.pos_embed_max_size = pos_embed_max_size
        self.proj = nn.Linear(patch_size * patch_size * in_channels, embed_dim)
        self.pos_embed = nn.Parameter(torch.randn(1, pos_embed_max_size, embed_dim))

    def crop_indices(self, height, width):
        """Flat indices of the centred `(height // p, width // p)` window of the positional grid.

        Returns:
            `torch.LongTensor` of shape `(num_patches,)`.
        """
        h_p, w_p = height // self.patch_size, width // self.patch_size
        side = int(math.isqrt(self.pos_embed_max_size))
        top = side // 2 - h_p // 2
        left = side // 2 - w_p // 2
        rows = torch.arange(top, top + h_p)
        cols = torch.arange(left, left + w_p)
        grid_r, grid_c = torch.meshgrid(rows, cols, indexing="ij")
        return (grid_r * side + grid_c).flatten()

    def forward(self, latent):
        """
        Args:
            latent (`torch.Tensor` of shape `(batch, channels, height, width)`).

        Returns:
            `torch.Tensor` of shape `(batch, num_patches, embed_dim)`.
        """
        b, c, h, w = latent.shape
        p = self.patch_size
        x = latent.view(b, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5).flatten(-3).flatten(1, 2)
        x = self.proj(x)
        index = self.crop_indices(h, w)
        return x + self.pos_embed[:, index]


if __name__ == "__main__":
    torch.manual_seed(0)
    embed = CroppedPosEmbedPatchifier(patch_size=2, in_channels=4, embed_dim=16, pos_embed_max_size=64)
    # a wide latent: 6 x 10 patches on an 8 x 8 pretrained grid
    latent = torch.randn(1, 4, 12, 20)
    tokens = embed(latent)
    index = embed.crop_indices(12, 20)
    print("tokens:", tuple(tokens.shape))
    print("patches:", index.numel(), "distinct positions used:", index.unique().numel())
    print("first crop row of flat positions:", index[:10].tolist())
