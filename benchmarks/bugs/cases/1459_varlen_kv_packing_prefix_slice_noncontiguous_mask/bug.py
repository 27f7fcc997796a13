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
    seqlens_k, cu_seqlens_q, cu_seqlens_k = _prepare_varlen(batch_size, seq_len_q, attn_mask)

    key_valid, value_valid = [], []
    for b in range(batch_size):
        valid_len = seqlens_k[b]
        key_valid.append(key[b, :valid_len])
        value_valid.append(value[b, :valid_len])

    query_packed = query.flatten(0, 1)
    key_packed = torch.cat(key_valid, dim=0)
    value_packed = torch.cat(value_valid, dim=0)
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
    sdpa = F.scaled_dot_product_attention(
        image_tokens.transpose(1, 2), text_keys.transpose(1, 2), text_values.transpose(1, 2),
        attn_mask=text_mask[:, None, None, :],
    ).transpose(1, 2)
    print("max |varlen - masked sdpa|:", (out - sdpa).abs().max().item())
