import torch
from torch import nn


def random_masking(x, mask_ratio, generator=None):
    """Per-sample random masking by shuffling patch order.

    Args:
        x: (N, L, D) patch embeddings.
        mask_ratio: fraction of patches to drop.
    Returns:
        x_masked: (N, L_keep, D) kept patches.
        mask: (N, L) binary mask, 0 is keep, 1 is remove, in the original order.
        ids_restore: (N, L) permutation that undoes the shuffle.
    """
    N, L, D = x.shape
    len_keep = int(L * (1 - mask_ratio))
    noise = torch.rand(N, L, generator=generator)  # (N, L)
    ids_shuffle = torch.argsort(noise, dim=1)  # ascend: small is keep
    ids_restore = torch.argsort(ids_shuffle, dim=1)  # (N, L)
    ids_keep = ids_shuffle[:, :len_keep]  # (N, L_keep)
    x_masked = torch.gather(x, dim=1, index=ids_keep.unsqueeze(-1).expand(-1, -1, D))
    mask = torch.ones(N, L)
    mask[:, :len_keep] = 0
    mask = torch.gather(mask, dim=1, index=ids_restore)
    return x_masked, mask, ids_restore


class DecoderInput(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mask_token = nn.Parameter(torch.randn(1, 1, dim))

    def forward(self, x_kept, ids_restore):
        # x_kept: (N, L_keep, D) -> (N, L, D) with mask tokens back in original patch order
        N, L = ids_restore.shape
        mask_tokens = self.mask_token.expand(N, L - x_kept.shape[1], -1)
        x_ = torch.cat([x_kept, mask_tokens], dim=1)  # (N, L, D), shuffled order
        return torch.gather(x_, dim=1, index=ids_restore.unsqueeze(-1).expand(-1, -1, x_.shape[2]))


if __name__ == "__main__":
    torch.manual_seed(0)
    patches = torch.randn(3, 16, 8)
    g = torch.Generator().manual_seed(5)
    x_masked, mask, ids_restore = random_masking(patches, mask_ratio=0.75, generator=g)
    dec = DecoderInput(8)
    with torch.no_grad():
        full = dec(x_masked, ids_restore)

    noise = torch.rand(3, 16, generator=torch.Generator().manual_seed(5))
    for n in range(3):
        order = sorted(range(16), key=lambda i: noise[n, i].item())
        keep = order[:4]
        for j, i in enumerate(keep):
            assert torch.equal(x_masked[n, j], patches[n, i])
        for i in range(16):
            assert mask[n, i].item() == (0.0 if i in keep else 1.0)
            expected = patches[n, i] if i in keep else dec.mask_token[0, 0]
            assert torch.allclose(full[n, i], expected)
    print("ok")
