import torch
import torch.nn.functional as F


def kv_heads_for_query_heads(key_states, value_states, num_heads):
    # key_states, value_states: [B, H_kv, L, D]
    num_kv_heads = key_states.size(1)
    head_idx = torch.arange(num_heads)  # [H]
    kv_head_idx = head_idx // (num_heads // num_kv_heads)  # [H] kv head serving each query head
    keys = key_states.index_select(1, kv_head_idx)  # [B, H, L, D]
    values = value_states.index_select(1, kv_head_idx)  # [B, H, L, D]
    return keys, values


def grouped_query_attention(query_states, key_states, value_states):
    # query_states: [B, H, L, D]; key_states, value_states: [B, H_kv, L, D]
    num_heads, head_dim = query_states.size(1), query_states.size(-1)
    keys, values = kv_heads_for_query_heads(key_states, value_states, num_heads)
    scores = query_states @ keys.transpose(-1, -2) / head_dim**0.5  # [B, H, L, L]
    causal = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
    probs = F.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1)
    return probs @ values  # [B, H, L, D]


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, num_heads, num_kv_heads, seq_len, head_dim = 2, 8, 2, 5, 16
    q = torch.randn(batch, num_heads, seq_len, head_dim)
    k = torch.randn(batch, num_kv_heads, seq_len, head_dim)
    v = torch.randn(batch, num_kv_heads, seq_len, head_dim)
    out = grouped_query_attention(q, k, v)
    group = num_heads // num_kv_heads
    for b in range(batch):
        for h in range(num_heads):
            kh = h // group
            for i in range(seq_len):
                s = torch.stack([q[b, h, i] @ k[b, kh, j] / head_dim**0.5 for j in range(i + 1)])
                p = torch.softmax(s, dim=0)
                ref = sum(p[j] * v[b, kh, j] for j in range(i + 1))
                assert torch.allclose(out[b, h, i], ref, atol=1e-5), (b, h, i)
    print("ok")
