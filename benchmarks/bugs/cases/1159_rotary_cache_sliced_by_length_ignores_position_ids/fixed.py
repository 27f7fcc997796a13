import torch
import torch.nn as nn
from jaxtyping import Float, Int


class RotaryEmbedding(nn.Module):
    def __init__(self, head_dim: int, max_positions: int = 64, base: float = 10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
        t = torch.arange(max_positions).float()
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat([freqs, freqs], dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(
        self, x: Float[torch.Tensor, "batch heads seq dim"], position_ids: Int[torch.Tensor, "batch seq"]
    ) -> tuple[Float[torch.Tensor, "batch seq dim"], Float[torch.Tensor, "batch seq dim"]]:
        cos = self.cos_cached[position_ids]
        sin = self.sin_cached[position_ids]
        return cos.to(x.dtype), sin.to(x.dtype)


def rotate_half(x: Float[torch.Tensor, "... dim"]) -> Float[torch.Tensor, "... dim"]:
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


def apply_rotary(
    q: Float[torch.Tensor, "batch heads seq dim"],
    cos: Float[torch.Tensor, "batch seq dim"],
    sin: Float[torch.Tensor, "batch seq dim"],
) -> Float[torch.Tensor, "batch heads seq dim"]:
    return q * cos.unsqueeze(1) + rotate_half(q) * sin.unsqueeze(1)


def draft_step_queries(rope: RotaryEmbedding, q, prefix_len: int, depth: int):
    """Queries of a speculative draft step: tokens sit `depth` positions after the prefix."""
    seq = q.shape[2]
    position_ids = (torch.arange(seq) + prefix_len + depth).unsqueeze(0).expand(q.shape[0], -1)
    cos, sin = rope(q, position_ids)
    return apply_rotary(q, cos, sin), position_ids


if __name__ == "__main__":
    torch.manual_seed(0)
    rope = RotaryEmbedding(head_dim=8)
    q = torch.randn(1, 2, 3, 8)
    q_rot, pos = draft_step_queries(rope, q, prefix_len=10, depth=2)
    import math
    D = 8
    for h in range(2):
        for s_ in range(3):
            p = int(pos[0, s_])
            for i in range(D):
                j = i % (D // 2)
                theta = p / (10000.0 ** (2 * j / D))
                other = -float(q[0, h, s_, i + D // 2]) if i < D // 2 else float(q[0, h, s_, i - D // 2])
                ref = float(q[0, h, s_, i]) * math.cos(theta) + other * math.sin(theta)
                assert abs(float(q_rot[0, h, s_, i]) - ref) < 1e-4
    print("ok")
