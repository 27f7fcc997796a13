import math

import torch
import torch.nn.functional as F


def _prepare_varlen(batch_size, seq_len_q, attn_mask):
    seqlens_q = torch.full((batch_size,), seq_len_q, dtype=torch.int32, device=attn_mask.device)
    seqlens_k = attn_mask.sum(dim=1, dtype=torch.int32)
    cu_seqlens_q = F.pad(torch.cumsum(seqlens_q, dim=0, dtype=torch.int32), (1, 0))
    cu_seqlens_k = F.pad(torch.cumsum(seqlens_k, dim=0, dtype=torch.int32), (1, 0))
    return seqlens_k, cu_seqlens_q, cu_seqlens_k


def varlen_attn_kernel(q, k, v, cu_seqlens_q, cu_seqlens_k, scale):
    """Stand-in for flash_attn_varlen_func: q/k/v are packed along tokens, one segment per sample."""
    out = torch.empty_like(q)
    for b in range(cu_seqlens_q.numel() - 1):
        qs, qe = int(cu_seqlens_q[b]), int(cu_seqlens_q[b + 1])
        ks, ke = int(cu_seqlens_k[b]), int(cu_seqlens_k[b + 1])
        qb, kb, vb = q[qs:qe].transpose(0, 1), k[ks:ke].transpose(0, 1), v[ks:ke].transpose(0, 1)
        attn = torch.softmax(qb @ kb.transpose(-1, -2) * scale, dim=-1)
        out[qs:qe] = (attn @ vb).transpose(0, 1)
    return out


def flash_varlen_attention(query, key, value, attn_mask, scale=None):
    batch_size, seq_len_q, _, head_dim = query.shape
    scale = scale if scale is not None else 1.0 / math.sqrt(head_dim)
    _, cu_seqlens_q, cu_seqlens_k = _prepare_varlen(batch_size, seq_len_q, attn_mask)

    indices_k = attn_mask.flatten().nonzero(as_tuple=False).flatten()
    query_packed = query.flatten(0, 1)
    key_packed = key.reshape(-1, *key.shape[2:])[indices_k]
    value_packed = value.reshape(-1, *value.shape[2:])[indices_k]
    out = varlen_attn_kernel(query_packed, key_packed, value_packed, cu_seqlens_q, cu_seqlens_k, scale)
    return out.unflatten(0, (batch_size, seq_len_q))


if __name__ == "__main__":
    torch.manual_seed(0)
    image_tokens = torch.randn(2, 6, 4, 8)
    text_keys = torch.randn(2, 10, 4, 8)
    text_values = torch.randn(2, 10, 4, 8)
    # left-padded prompt in row 0, prompt with padded gaps (packed segments) in row 1
    text_mask = torch.tensor(
        [[0, 0, 0, 1, 1, 1, 1, 1, 1, 1],
         [1, 1, 0, 1, 1, 1, 0, 1, 1, 1]], dtype=torch.bool
    )
    out = flash_varlen_attention(image_tokens, text_keys, text_values, text_mask)
    scale = 1.0 / math.sqrt(8)
    for b in range(2):
        valid = [j for j in range(10) if bool(text_mask[b, j])]
        for i in range(6):
            for h in range(4):
                logits = [float(image_tokens[b, i, h] @ text_keys[b, j, h]) * scale for j in valid]
                m = max(logits)
                w = [math.exp(l - m) for l in logits]
                z = sum(w)
                ref = sum((w[n] / z) * text_values[b, j, h] for n, j in enumerate(valid))
                assert torch.allclose(out[b, i, h], ref, atol=1e-5)
    print("ok")
