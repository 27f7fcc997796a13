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
        seq_len = position_ids.shape[-1]
        cos = self.cos_cached[:seq_len].unsqueeze(0).expand(position_ids.shape[0], -1, -1)
        sin = self.sin_cached[:seq_len].unsqueeze(0).expand(position_ids.shape[0], -1, -1)
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
    same_as_pos0 = apply_rotary(q, rope.cos_cached[:3].unsqueeze(0), rope.sin_cached[:3].unsqueeze(0))
    print("positions:", pos[0].tolist())
    print("rotated as if at positions 0..2:", torch.allclose(q_rot, same_as_pos0))
