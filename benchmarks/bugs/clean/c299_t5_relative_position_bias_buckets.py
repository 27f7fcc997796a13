"""T5-style relative position bias: bucketed relative distances looked up in a per-head embedding table."""
import math

import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def relative_position_bucket(
    relative_position: Int[Tensor, "q k"], bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> Int[Tensor, "q k"]:
    relative_buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1))
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


class RelativePositionBias(nn.Module):
    def __init__(self, n_heads: int, num_buckets: int = 32, max_distance: int = 128, bidirectional: bool = True):
        super().__init__()
        self.n_heads, self.num_buckets, self.max_distance, self.bidirectional = n_heads, num_buckets, max_distance, bidirectional
        self.relative_attention_bias = nn.Embedding(num_buckets, n_heads)

    def forward(self, query_length: int, key_length: int) -> Float[Tensor, "1 heads q k"]:
        context_position: Int[Tensor, "q 1"] = torch.arange(query_length, dtype=torch.long)[:, None]
        memory_position: Int[Tensor, "1 k"] = torch.arange(key_length, dtype=torch.long)[None, :]
        relative_position = memory_position - context_position
        buckets = relative_position_bucket(relative_position, self.bidirectional, self.num_buckets, self.max_distance)
        values: Float[Tensor, "q k heads"] = self.relative_attention_bias(buckets)
        return values.permute(2, 0, 1).unsqueeze(0)


def attention_with_bias(q: Float[Tensor, "b h q d"], k: Float[Tensor, "b h k d"], v: Float[Tensor, "b h k d"], bias: Float[Tensor, "1 h q k"]):
    scores = q @ k.transpose(-1, -2) + bias
    return scores.softmax(-1) @ v


def reference_bucket(rel, bidirectional, num_buckets, max_distance):
    bucket = 0
    if bidirectional:
        num_buckets //= 2
        if rel > 0:
            bucket += num_buckets
        rel = abs(rel)
    else:
        rel = -min(rel, 0)
    max_exact = num_buckets // 2
    if rel < max_exact:
        return bucket + rel
    large = max_exact + int(math.log(rel / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact))
    return bucket + min(large, num_buckets - 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    for bidirectional in (True, False):
        bias_module = RelativePositionBias(n_heads=4, num_buckets=32, max_distance=64, bidirectional=bidirectional)
        bias = bias_module(query_length=40, key_length=90)
        table = bias_module.relative_attention_bias.weight
        for i in range(40):
            for j in range(0, 90, 7):
                bucket = reference_bucket(j - i, bidirectional, 32, 64)
                assert 0 <= bucket < 32
                assert torch.equal(bias[0, :, i, j], table[bucket])
    q, k, v = torch.randn(2, 4, 40, 8), torch.randn(2, 4, 90, 8), torch.randn(2, 4, 90, 8)
    out = attention_with_bias(q, k, v, bias)
    assert out.shape == (2, 4, 40, 8)
    print("ok")
