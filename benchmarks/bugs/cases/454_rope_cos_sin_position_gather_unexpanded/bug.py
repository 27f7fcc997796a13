import torch


def build_rope_cache(max_positions, rotary_dim, base=10000.0):
    inv_freq = 1.0 / (base ** (torch.arange(0, rotary_dim, 2).float() / rotary_dim))
    angles = torch.outer(torch.arange(max_positions).float(), inv_freq)
    angles = torch.cat([angles, angles], dim=-1)
    return angles.cos()[:, None, None, :], angles.sin()[:, None, None, :]


def get_cos_and_sin(cos_cache, sin_cache, positions):
    num_tokens = positions.size(0)
    gather_idx = positions.reshape(-1, 1, 1, 1)
    cos = torch.gather(cos_cache, 0, gather_idx)
    sin = torch.gather(sin_cache, 0, gather_idx)
    return cos.view(num_tokens, 1, -1), sin.view(num_tokens, 1, -1)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


def apply_rope(q, k, cos, sin):
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


def decode_step(engine, q, k, positions):
    cos, sin = get_cos_and_sin(engine["cos_cache"], engine["sin_cache"], positions)
    return apply_rope(q, k, cos, sin)


if __name__ == "__main__":
    torch.manual_seed(0)
    settings = {"max_positions": 4096, "rotary_dim": 64, "heads": 8, "kv_heads": 2}
    cos_cache, sin_cache = build_rope_cache(settings["max_positions"], settings["rotary_dim"])
    engine = {"cos_cache": cos_cache, "sin_cache": sin_cache}
    positions = torch.tensor([17, 530, 2049, 3])
    q = torch.randn(len(positions), settings["heads"], settings["rotary_dim"])
    k = torch.randn(len(positions), settings["kv_heads"], settings["rotary_dim"])
    q_rot, k_rot = decode_step(engine, q, k, positions)
    cos, _ = get_cos_and_sin(cos_cache, sin_cache, positions)
    print("q_rot", tuple(q_rot.shape), "cos", tuple(cos.shape), "distinct cos values for token 0:", cos[0].unique().numel())
