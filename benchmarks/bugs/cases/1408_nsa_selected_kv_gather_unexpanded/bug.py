import torch


def naive_selected_attention(q, k, v, block_indices, block_size=4, scale=None):
    r"""
    Loop reference for block-sparse selected attention (NSA selection branch).

    Args:
        q (torch.Tensor):
            queries of shape `[B, T, HQ, K]`.
        k (torch.Tensor):
            keys of shape `[B, T, H, K]`. GQA: HQ must be a multiple of H.
        v (torch.Tensor):
            values of shape `[B, T, H, V]`.
        block_indices (torch.LongTensor):
            selected block ids of shape `[B, T, H, S]`.
        block_size (int):
            number of tokens per selected block.
        scale (float, optional):
            softmax scale, `1 / sqrt(K)` when not given.

    Returns:
        o (torch.Tensor):
            outputs of shape `[B, T, HQ, V]`.
    """
    if scale is None:
        scale = k.shape[-1] ** -0.5
    G = q.shape[2] // k.shape[2]
    k, v, block_indices = (x.repeat_interleave(G, dim=2) for x in (k, v, block_indices))
    dtype = q.dtype
    q, k, v = q.float(), k.float(), v.float()
    B, T, HQ, _ = q.shape
    S = block_indices.shape[-1]

    o = torch.zeros(B, T, HQ, v.shape[-1])
    for b in range(B):
        q_b, k_b, v_b, i_b = q[b], k[b], v[b], block_indices[b]
        i_b = i_b.unsqueeze(-1) * block_size + torch.arange(block_size)
        i_b = i_b.view(T, HQ, S * block_size).transpose(1, 2)
        for t in range(T):
            q_t = q_b[t] * scale
            i_t = i_b[t]
            k_t = k_b.gather(0, i_t.unsqueeze(-1))
            v_t = v_b.gather(0, i_t.unsqueeze(-1))
            attn = torch.einsum("hd,nhd->nh", q_t, k_t).masked_fill(i_t > t, float("-inf")).softmax(0)
            o[b, t] = torch.einsum("nh,nhv->hv", attn, v_t)
    return o.to(dtype)


def make_block_indices(B, T, H, block_size, generator):
    num_blocks = T // block_size
    idx = torch.empty(B, T, H, 2, dtype=torch.long)
    for b in range(B):
        for t in range(T):
            for h in range(H):
                cur = t // block_size
                others = [j for j in range(num_blocks) if j != cur]
                other = others[torch.randint(len(others), (1,), generator=generator).item()]
                idx[b, t, h] = torch.tensor([cur, other])
    return idx


def loop_reference(q, k, v, block_indices, block_size):
    B, T, HQ, D = q.shape
    G = HQ // k.shape[2]
    out = torch.zeros(B, T, HQ, v.shape[-1])
    for b in range(B):
        for t in range(T):
            for h in range(HQ):
                kv_head = h // G
                positions = []
                for blk in block_indices[b, t, kv_head].tolist():
                    positions += [blk * block_size + j for j in range(block_size)]
                positions = [p for p in positions if p <= t]
                scores = torch.stack([(q[b, t, h] * k[b, p, kv_head]).sum() * D ** -0.5 for p in positions])
                w = scores.softmax(0)
                out[b, t, h] = sum(w[n] * v[b, p, kv_head] for n, p in enumerate(positions))
    return out


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    B, T, H, G, D, BS = 2, 16, 2, 2, 8, 4
    q = torch.randn(B, T, H * G, D, generator=g)
    k = torch.randn(B, T, H, D, generator=g)
    v = torch.randn(B, T, H, D, generator=g)
    block_indices = make_block_indices(B, T, H, BS, g)
    o = naive_selected_attention(q, k, v, block_indices, block_size=BS)
    print("output shape:", tuple(o.shape))
    print("distinct values across the value dim at o[0, 5, 0]:", o[0, 5, 0].unique().numel(), "of", D)
    ref = loop_reference(q, k, v, block_indices, BS)
    print("max abs diff vs per-position loop:", (o - ref).abs().max().item())
