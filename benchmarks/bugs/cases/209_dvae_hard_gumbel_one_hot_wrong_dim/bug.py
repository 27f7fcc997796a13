import torch
import torch.nn as nn
import torch.nn.functional as F


def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1, generator=None):
    u = torch.rand(logits.shape, generator=generator).clamp_(1e-9, 1 - 1e-9)
    gumbels = -torch.log(-torch.log(u))
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = torch.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


class DiscreteVAE(nn.Module):
    def __init__(self, num_tokens=16, codebook_dim=8, hidden_dim=12, temperature=0.9):
        super().__init__()
        self.num_tokens = num_tokens
        self.temperature = temperature
        self.encoder = nn.Sequential(
            nn.Conv2d(3, hidden_dim, 4, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(hidden_dim, num_tokens, 1),
        )
        self.codebook = nn.Embedding(num_tokens, codebook_dim)
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(codebook_dim, hidden_dim, 4, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(hidden_dim, 3, 1),
        )

    @torch.no_grad()
    def get_codebook_indices(self, images):
        logits = self.encoder(images)  # (b, n, h, w)
        return logits.argmax(dim=1)  # (b, h, w)

    def forward(self, img, generator=None):
        logits = self.encoder(img)  # (b, n, h, w): one score per codebook entry at every position
        soft_one_hot = gumbel_softmax(logits, tau=self.temperature, hard=True, generator=generator)
        sampled = torch.einsum("b n h w, n d -> b d h w", soft_one_hot, self.codebook.weight)
        out = self.decoder(sampled)
        return out, soft_one_hot


if __name__ == "__main__":
    torch.manual_seed(0)
    vae = DiscreteVAE()
    images = torch.randn(2, 3, 8, 8)
    recon, one_hot = vae(images, generator=torch.Generator().manual_seed(1))
    per_position = one_hot.detach().sum(dim=1)  # should be exactly 1 at every (b, h, w)
    print("codes per position (min, max):", per_position.min().item(), per_position.max().item())
    print("positions with exactly one code:", int((per_position == 1).sum()), "of", per_position.numel())
