import torch


class DecodingKVCluster:
    """H2O-style decoding-stage KV compression: keep the whole prompt cache,
    the top-scoring generated tokens, and the most recent window."""

    def __init__(self, max_capacity_prompt, decoding_window_size, window_size):
        self.max_capacity_prompt = max_capacity_prompt
        self.decoding_window_size = decoding_window_size
        self.window_size = window_size

    def update_kv(self, key_states, value_states, attn_weights):
        # key_states / value_states: [bsz, num_heads, kv_len, head_dim]
        # attn_weights: [bsz, num_heads, q_len, kv_len]
        bsz, num_heads, kv_len, head_dim = key_states.shape
        window_size = self.window_size

        # accumulated attention each cached token received: [bsz, num_heads, kv_len - window]
        attn_cache = attn_weights[:, :, :, :-window_size].sum(dim=-2)

        # prefill cache is always kept: [bsz, num_heads, max_capacity_prompt]
        prefill_indices = torch.arange(self.max_capacity_prompt, device=key_states.device)
        prefill_indices = prefill_indices.view(1, 1, -1).repeat(bsz, num_heads, 1)

        # heavy hitters among the generated tokens: [bsz, num_heads, k]
        k = self.decoding_window_size - window_size
        decoding_indices = attn_cache[:, :, self.max_capacity_prompt:].topk(k, dim=-1).indices
        decoding_indices = decoding_indices + self.max_capacity_prompt  # back to cache positions

        # all kept positions: [bsz, num_heads, max_capacity_prompt + k, head_dim]
        indices = torch.cat((prefill_indices, decoding_indices), dim=2)
        indices = indices.unsqueeze(-1).expand(-1, -1, -1, head_dim)

        past_k, recent_k = key_states.split([kv_len - window_size, window_size], dim=2)
        past_v, recent_v = value_states.split([kv_len - window_size, window_size], dim=2)
        kept_k = torch.gather(past_k, 2, indices)
        kept_v = torch.gather(past_v, 2, indices)
        return torch.cat([kept_k, recent_k], dim=2), torch.cat([kept_v, recent_v], dim=2)


if __name__ == "__main__":
    torch.manual_seed(0)
    bsz, heads, kv_len, head_dim, q_len = 2, 3, 40, 8, 4
    cluster = DecodingKVCluster(max_capacity_prompt=16, decoding_window_size=10, window_size=4)
    keys = torch.randn(bsz, heads, kv_len, head_dim)
    values = torch.randn(bsz, heads, kv_len, head_dim)
    attn = torch.rand(bsz, heads, q_len, kv_len).softmax(dim=-1)
    new_k, new_v = cluster.update_kv(keys, values, attn)

    # reference: which cache positions must survive, per (batch, head)
    scores = attn[:, :, :, :-4].sum(dim=-2)
    ref_k = torch.empty_like(new_k)
    for b in range(bsz):
        for h in range(heads):
            gen = [(scores[b, h, p].item(), p) for p in range(16, kv_len - 4)]
            top = [p for _, p in sorted(gen, reverse=True)[:6]]
            keep = list(range(16)) + top + list(range(kv_len - 4, kv_len))
            for slot, p in enumerate(keep):
                ref_k[b, h, slot] = keys[b, h, p]
    assert torch.equal(new_k, ref_k)
    print("ok")
