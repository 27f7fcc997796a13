import torch


class StaticKVCache:
    def __init__(self, batch, heads, max_len, head_dim):
        self.k = torch.zeros(batch, heads, max_len, head_dim)
        self.v = torch.zeros(batch, heads, max_len, head_dim)

    def update(self, key_states, value_states, cache_position):
        """Write new key/value states into the cache.

        Args:
            key_states (`torch.FloatTensor` of shape `(batch, heads, new_len, head_dim)`): new keys.
            value_states (`torch.FloatTensor` of shape `(batch, heads, new_len, head_dim)`): new values.
            cache_position (`torch.LongTensor` of shape `(new_len,)`): slots the new states go to.

        Returns:
            The full key and value caches, each `(batch, heads, max_len, head_dim)`.
        """
        self.k.index_copy_(2, cache_position, key_states)
        self.v.index_copy_(2, cache_position, value_states)
        return self.k, self.v


def decode(cache, proj, prompt_states, steps):
    seq_len = prompt_states.shape[2]
    k, v = proj(prompt_states)
    cache.update(k, v, torch.arange(seq_len))
    x = prompt_states[:, :, -1:]
    for _ in range(steps):
        seq_len += 1
        k, v = proj(x)
        cache_position = torch.arange(seq_len)
        keys, values = cache.update(k, v, cache_position)
        attn = (x @ keys[:, :, :seq_len].transpose(-1, -2)).softmax(-1)
        x = attn @ values[:, :, :seq_len]
    return x


if __name__ == "__main__":
    torch.manual_seed(0)
    w_k, w_v = torch.randn(8, 8), torch.randn(8, 8)
    proj = lambda h: (h @ w_k, h @ w_v)
    cache = StaticKVCache(batch=1, heads=2, max_len=16, head_dim=8)
    out = decode(cache, proj, torch.randn(1, 2, 5, 8), steps=3)
    print("last hidden", out.shape)
