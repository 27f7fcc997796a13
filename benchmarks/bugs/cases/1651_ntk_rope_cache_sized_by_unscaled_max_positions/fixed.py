import torch
import torch.nn as nn


class RotaryEmbedding(nn.Module):
    """Neox-style rotary embedding with a precomputed cos/sin cache."""

    def __init__(self, head_size: int, max_position_embeddings: int, base: float):
        super().__init__()
        self.head_size = head_size
        self.max_position_embeddings = max_position_embeddings
        self.base = base
        self.register_buffer("cos_sin_cache", self._compute_cos_sin_cache(), persistent=False)

    def _compute_inv_freq(self, base: float) -> torch.Tensor:
        return 1.0 / (base ** (torch.arange(0, self.head_size, 2, dtype=torch.float) / self.head_size))

    def _compute_cos_sin_cache(self) -> torch.Tensor:
        inv_freq = self._compute_inv_freq(self.base)
        t = torch.arange(self.max_position_embeddings, dtype=torch.float)
        freqs = torch.outer(t, inv_freq)
        return torch.cat((freqs.cos(), freqs.sin()), dim=-1)

    def forward(self, positions: torch.Tensor, query: torch.Tensor, key: torch.Tensor):
        """Rotate query and key by their absolute positions.

        Args:
            positions (`torch.LongTensor` of shape `(num_tokens,)`):
                Position of every token in its sequence.
            query (`torch.Tensor` of shape `(num_tokens, num_heads * head_size)`):
                Query projections.
            key (`torch.Tensor` of shape `(num_tokens, num_kv_heads * head_size)`):
                Key projections.

        Returns:
            `tuple(torch.Tensor)`: rotated query and key, same shapes as the inputs.
        """
        cos_sin = self.cos_sin_cache.index_select(0, positions)
        cos, sin = cos_sin.chunk(2, dim=-1)
        return self._rotate(query, cos, sin), self._rotate(key, cos, sin)

    def _rotate(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        x = x.view(x.shape[0], -1, self.head_size)
        x1, x2 = x.chunk(2, dim=-1)
        cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
        out = torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)
        return out.flatten(1)


class NTKScalingRotaryEmbedding(RotaryEmbedding):
    """RotaryEmbedding extended with fixed NTK-aware scaling of the base."""

    def __init__(self, head_size: int, max_position_embeddings: int, base: float, scaling_factor: float):
        self.scaling_factor = scaling_factor
        super().__init__(head_size, max_position_embeddings, base)

    def _compute_inv_freq(self, base: float) -> torch.Tensor:
        base = base * self.scaling_factor ** (self.head_size / (self.head_size - 2))
        return super()._compute_inv_freq(base)

    def _compute_cos_sin_cache(self) -> torch.Tensor:
        # the scaled model accepts max_position_embeddings * scaling_factor positions
        inv_freq = self._compute_inv_freq(self.base)
        t = torch.arange(int(self.max_position_embeddings * self.scaling_factor), dtype=torch.float)
        freqs = torch.outer(t, inv_freq)
        return torch.cat((freqs.cos(), freqs.sin()), dim=-1)


def get_rope(config: dict) -> RotaryEmbedding:
    scaling = config.get("rope_scaling")
    if scaling and scaling["rope_type"] == "ntk":
        return NTKScalingRotaryEmbedding(
            config["head_dim"], config["max_position_embeddings"], config["rope_theta"], scaling["factor"]
        )
    return RotaryEmbedding(config["head_dim"], config["max_position_embeddings"], config["rope_theta"])


def derived_max_model_len(config: dict) -> int:
    scaling = config.get("rope_scaling")
    factor = scaling["factor"] if scaling and scaling["rope_type"] not in ("su", "longrope", "llama3") else 1.0
    return int(config["max_position_embeddings"] * factor)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"head_dim": 8, "num_heads": 2, "max_position_embeddings": 32, "rope_theta": 10000.0,
              "rope_scaling": {"rope_type": "ntk", "factor": 2.0}}
    rope = get_rope(config)
    seq_len = derived_max_model_len(config) - 4
    positions = torch.arange(seq_len)
    q = torch.randn(seq_len, config["num_heads"] * config["head_dim"])
    k = torch.randn(seq_len, config["head_dim"])
    q_rot, k_rot = rope(positions, q, k)
    import math
    d = config["head_dim"]
    base = config["rope_theta"] * 2.0 ** (d / (d - 2))
    for t in range(seq_len):
        for h in range(config["num_heads"]):
            for j in range(d // 2):
                ang = t * (1.0 / base ** (2 * j / d))
                a, b = q[t, h * d + j].item(), q[t, h * d + j + d // 2].item()
                assert abs(q_rot[t, h * d + j].item() - (a * math.cos(ang) - b * math.sin(ang))) < 1e-4
                assert abs(q_rot[t, h * d + j + d // 2].item() - (b * math.cos(ang) + a * math.sin(ang))) < 1e-4
    print("ok")
