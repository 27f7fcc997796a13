import math

import torch
from torch import nn


class Sequence:
    def __init__(self, token_ids):
        self.token_ids = list(token_ids)

    def __len__(self):
        return len(self.token_ids)

    @property
    def last_token(self):
        return self.token_ids[-1]


def rotate_half_pairs(x, cos, sin):
    half = x.shape[-1] // 2
    lo, hi = x[..., :half].float(), x[..., half:].float()
    return torch.cat((lo * cos - hi * sin, hi * cos + lo * sin), dim=-1).to(x.dtype)


class RotaryEmbedding(nn.Module):
    def __init__(self, head_size, max_position_embeddings, base):
        super().__init__()
        exponents = torch.arange(0, head_size, 2, dtype=torch.float) / head_size
        angles = torch.outer(torch.arange(max_position_embeddings, dtype=torch.float), base ** -exponents)
        table = torch.cat((angles.cos(), angles.sin()), dim=-1)[:, None, :]
        self.register_buffer("cos_sin_cache", table, persistent=False)

    def forward(self, positions, query):
        cos_sin = self.cos_sin_cache[positions]
        cos, sin = cos_sin.chunk(2, dim=-1)
        return rotate_half_pairs(query, cos, sin)


def prepare_decode(seqs):
    input_ids = []
    positions = []
    for seq in seqs:
        input_ids.append(seq.last_token)
        positions.append(len(seq) - 1)
    return torch.tensor(input_ids, dtype=torch.int64), torch.tensor(positions, dtype=torch.int64)


if __name__ == "__main__":
    torch.manual_seed(0)
    rope = RotaryEmbedding(head_size=16, max_position_embeddings=64, base=10000.0)
    seqs = [Sequence(range(5)), Sequence(range(12)), Sequence(range(30))]
    input_ids, positions = prepare_decode(seqs)
    q = torch.randn(3, 4, 16)
    q_rot = rope(positions, q)

    # the token being decoded sits at index len(seq) - 1 (it was appended last step)
    ref = torch.empty_like(q)
    for i, seq in enumerate(seqs):
        pos = len(seq) - 1
        for h in range(4):
            for j in range(8):
                theta = pos / (10000.0 ** (2 * j / 16))
                a, b = q[i, h, j].item(), q[i, h, j + 8].item()
                ref[i, h, j] = a * math.cos(theta) - b * math.sin(theta)
                ref[i, h, j + 8] = b * math.cos(theta) + a * math.sin(theta)
    assert torch.allclose(q_rot, ref, atol=1e-5), (q_rot - ref).abs().max()
    print("ok")
