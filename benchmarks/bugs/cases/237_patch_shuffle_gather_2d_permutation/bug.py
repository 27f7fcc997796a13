import torch
import torch.nn as nn


class PatchEmbed(nn.Module):
    def __init__(self, img_size=16, patch_size=4, in_chans=3, embed_dim=8):
        super().__init__()
        self.num_patches = (img_size // patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        # x: [B, C, H, W] -> [B, N, D]
        return self.proj(x).flatten(2).transpose(1, 2)


def shuffle_patches(x, generator=None):
    """Jigsaw pretext task: permute the patch tokens, one permutation shared by the batch."""
    B, N, D = x.shape
    perm = torch.randperm(N, generator=generator)  # [N]
    ids_shuffle = perm.unsqueeze(0).expand(B, -1)  # [B, N]
    x_shuffled = torch.gather(x, dim=1, index=ids_shuffle)  # [B, N, D]
    return x_shuffled, ids_shuffle


class JigsawHead(nn.Module):
    """Predicts, for every shuffled token, the position it came from."""

    def __init__(self, embed_dim, num_patches):
        super().__init__()
        self.patch_embed = PatchEmbed(embed_dim=embed_dim)
        self.classifier = nn.Linear(embed_dim, num_patches)

    def forward(self, imgs, generator=None):
        tokens = self.patch_embed(imgs)  # [B, N, D]
        shuffled, ids_shuffle = shuffle_patches(tokens, generator)
        logits = self.classifier(shuffled)  # [B, N, N]
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), ids_shuffle.flatten())
        return loss, shuffled, ids_shuffle


if __name__ == "__main__":
    torch.manual_seed(0)
    model = JigsawHead(embed_dim=8, num_patches=16)
    imgs = torch.randn(2, 3, 16, 16)
    loss, shuffled, ids = model(imgs, torch.Generator().manual_seed(1))
    print("jigsaw loss:", round(loss.item(), 4))
