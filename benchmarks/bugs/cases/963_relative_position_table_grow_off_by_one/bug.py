import math

import torch
import torch.nn as nn


def sinusoid_table(num_rows, dim, shift):
    pos = torch.arange(num_rows, dtype=torch.float32) - shift
    freq = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(10000.0) / dim))
    ang = pos[:, None] * freq[None, :]
    return torch.cat([ang.sin(), ang.cos()], dim=1)


class RelativeSinusoidalPositions(nn.Module):
    def __init__(self, dim, init_size):
        super().__init__()
        self.dim = dim
        self.origin_shift = init_size // 2
        self.register_buffer("weights", sinusoid_table(init_size, dim, self.origin_shift), persistent=False)

    def forward(self, x):
        seq_len = x.size(1)
        if seq_len > self.origin_shift:
            self.origin_shift = seq_len + 1
            self.weights = sinusoid_table(2 * self.origin_shift, self.dim, self.origin_shift).to(x.device)
        positions = torch.arange(-seq_len, seq_len + 1, device=x.device) + self.origin_shift
        return self.weights.index_select(0, positions)


class RelativeAttentionScores(nn.Module):
    def __init__(self, dim, init_size):
        super().__init__()
        self.pos = RelativeSinusoidalPositions(dim, init_size)
        self.proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        rel = self.proj(self.pos(x))
        return torch.einsum("bld,rd->blr", x, rel)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = RelativeAttentionScores(dim=16, init_size=8)
    for length in (3, 4):
        scores = layer(torch.randn(2, length, 16))
        print(length, tuple(scores.shape))
