import math

import torch
import torch.nn as nn


class HybridCache:
    """Static KV cache for models that alternate global and sliding-window attention layers.

    Global layers keep `max_cache_len` positions; sliding-window layers only keep `sliding_window` positions.

    Args:
        num_layers (`int`): number of decoder layers.
        num_heads (`int`): number of key/value heads.
        head_dim (`int`): size of each head.
        max_cache_len (`int`): maximum number of positions kept by global layers.
        sliding_window (`int`): number of positions kept by sliding-window layers.
        batch_size (`int`): batch size the cache is allocated for.
    """

    def __init__(self, num_layers, num_heads, head_dim, max_cache_len, sliding_window, batch_size=1):
        self.is_sliding = [bool(i % 2 == 0) for i in range(num_layers)]
        self.key_cache, self.value_cache = [], []
        for sliding in self.is_sliding:
            length = min(sliding_window, max_cache_len) if sliding else max_cache_len
            self.key_cache.append(torch.zeros(batch_size, num_heads, length, head_dim))
            self.value_cache.append(torch.zeros(batch_size, num_heads, length, head_dim))

    def _static_update(self, cache_position, layer_idx, key_states, value_states, k_out, v_out):
        k_out[:, :, cache_position] = key_states
        v_out[:, :, cache_position] = value_states
        return k_out, v_out

    def _sliding_update(self, cache_position, layer_idx, key_states, value_states, k_out, v_out):
        window = k_out.shape[2]
        if int(cache_position[-1]) >= window:
            # roll the window left so that the newest entries land in its last slots
            n_new = key_states.shape[2]
            roll = (torch.arange(window) + n_new) % window
            k_out = k_out.index_select(2, roll)
            v_out = v_out.index_select(2, roll)
            cache_position = torch.arange(window - n_new, window)
        k_out[:, :, cache_position] = key_states
        v_out[:, :, cache_position] = value_states
        self.key_cache[layer_idx], self.value_cache[layer_idx] = k_out, v_out
        return k_out, v_out

    def update(self, key_states, value_states, layer_idx, cache_kwargs):
        """
        Args:
            key_states (`torch.Tensor` of shape `(batch_size, num_heads, q_len, head_dim)`)
            value_states (`torch.Tensor` of shape `(batch_size, num_heads, q_len, head_dim)`)
            cache_kwargs (`dict`): must contain `cache_position` (`torch.LongTensor` of shape `(q_len,)`);
                sliding-window layers also pass `sliding_window`.

        Returns:
            keys and values of shape `(batch_size, num_heads, cache_len, head_dim)`.
        """
        cache_position = cache_kwargs["cache_position"]
        k_out, v_out = self.key_cache[layer_idx], self.value_cache[layer_idx]
        if cache_kwargs.get("sliding_window") is not None:
            return self._sliding_update(cache_position, layer_idx, key_states, value_states, k_out, v_out)
        return self._static_update(cache_position, layer_idx, key_states, value_states, k_out, v_out)


class DecoderAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, layer_idx, sliding_window=None):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.layer_idx = layer_idx
        self.sliding_window = sliding_window
        self.qkv = nn.Linear(hidden_size, 3 * hidden_size, bias=False)
        self.o_proj = nn.Linear(hidden_size, hidden_size, bias=False)

    def forward(self, hidden_states, cache, cache_position):
        """
        Args:
            hidden_states (`torch.FloatTensor` of shape `(batch_size, q_len, hidden_size)`)
            cache (`HybridCache`)
            cache_position (`torch.LongTensor` of shape `(q_len,)`): absolute positions of the new tokens.
        """
        bsz, q_len, _ = hidden_states.shape
        q, k, v = self.qkv(hidden_states).chunk(3, dim=-1)
        q, k, v = (t.view(bsz, q_len, self.num_heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        cache_kwargs = {"cache_position": cache_position}
        k, v = cache.update(k, v, self.layer_idx, cache_kwargs)
        n_valid = min(int(cache_position[-1]) + 1, k.shape[2])
        k, v = k[:, :, :n_valid], v[:, :, :n_valid]
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        out = scores.softmax(-1) @ v
        return self.o_proj(out.transpose(1, 2).reshape(bsz, q_len, -1))


if __name__ == "__main__":
    torch.manual_seed(0)
    hidden, heads, window, max_len = 32, 4, 8, 32
    layers = nn.ModuleList(
        DecoderAttention(hidden, heads, i, sliding_window=window if i % 2 == 0 else None) for i in range(2)
    )
    cache = HybridCache(2, heads, hidden // heads, max_len, window)
    # generate one token at a time past the sliding window
    for pos in range(12):
        x = torch.randn(1, 1, hidden)
        for layer in layers:
            x = layer(x, cache, torch.tensor([pos]))
        print("decoded position", pos, "norm", round(x.norm().item(), 4))
