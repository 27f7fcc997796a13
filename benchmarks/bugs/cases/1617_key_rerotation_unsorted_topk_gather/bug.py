from dataclasses import dataclass

import torch


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rope_cos_sin(position_ids, head_dim, base=10000.0):
    # position_ids: [bsz, seq] -> cos, sin: [bsz, seq, head_dim]
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    freqs = position_ids[..., None].float() * inv_freq
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


@dataclass
class KnormPress:
    """Scores every cached token by the negative L2 norm of its key."""

    compression_ratio: float = 0.0

    def score(self, keys):
        # keys: [bsz, num_kv_heads, q_len, head_dim] -> [bsz, num_kv_heads, q_len]
        return -keys.norm(dim=-1)


@dataclass
class KeyRerotationPress:
    """Prunes the KV cache with an inner scorer press and re-applies RoPE to the kept keys,
    so that they sit at contiguous positions 0..n_kept-1."""

    press: KnormPress

    def compress(self, keys, values, position_embeddings):
        # keys, values: [bsz, num_kv_heads, q_len, head_dim]
        if self.press.compression_ratio == 0:
            return keys, values
        scores = self.press.score(keys)  # [bsz, num_kv_heads, q_len]
        q_len, head_dim = keys.shape[2], keys.shape[3]
        n_kept = int(q_len * (1 - self.press.compression_ratio))
        indices = scores.topk(n_kept, dim=-1).indices  # [bsz, num_kv_heads, n_kept]
        indices = indices.unsqueeze(-1).expand(-1, -1, -1, head_dim)

        cos, sin = position_embeddings  # [bsz, q_len, head_dim]
        # undo the rotation (sin -> -sin), prune, rotate again at the new positions
        keys = keys * cos.unsqueeze(1) + rotate_half(keys) * (-sin.unsqueeze(1))
        keys = keys.gather(2, indices).contiguous()
        cos, sin = cos[:, :n_kept], sin[:, :n_kept]
        keys = keys * cos.unsqueeze(1) + rotate_half(keys) * sin.unsqueeze(1)
        values = values.gather(2, indices).contiguous()
        return keys, values


def rope_one(vec, pos, head_dim):
    cos, sin = rope_cos_sin(torch.tensor([[pos]]), head_dim)
    return vec * cos[0, 0] + rotate_half(vec) * sin[0, 0]


if __name__ == "__main__":
    torch.manual_seed(0)
    bsz, heads, q_len, head_dim = 2, 2, 10, 8
    raw_keys = torch.randn(bsz, heads, q_len, head_dim)
    values = torch.randn(bsz, heads, q_len, head_dim)
    position_ids = torch.arange(q_len).unsqueeze(0).expand(bsz, -1)
    cos, sin = rope_cos_sin(position_ids, head_dim)
    keys = raw_keys * cos.unsqueeze(1) + rotate_half(raw_keys) * sin.unsqueeze(1)

    press = KeyRerotationPress(press=KnormPress(compression_ratio=0.5))
    new_keys, new_values = press.compress(keys, values, (cos, sin))

    # reference: kept tokens stay in their original order and are rotated to 0..n_kept-1
    n_kept = new_keys.shape[2]
    scores = -raw_keys.norm(dim=-1)
    ok = True
    for b in range(bsz):
        for h in range(heads):
            kept = sorted(scores[b, h].topk(n_kept).indices.tolist())
            for j, p in enumerate(kept):
                ok &= torch.allclose(new_values[b, h, j], values[b, h, p])
                ok &= torch.allclose(new_keys[b, h, j], rope_one(raw_keys[b, h, p], j, head_dim), atol=1e-5)
    print("kept positions (b=0, h=0) in cache order:", scores[0, 0].topk(n_kept).indices.tolist())
    print("pruned cache keeps the original token order:", ok)
