import math

import torch


def select_key_channels(query_states, key_states, ratio, window_size):
    """Query-driven key channel pruning (ThinK).

    query_states, key_states: (1, heads, seq_len, head_dim). Scores every key channel by the
    magnitude of its interaction with the last `window_size` queries and returns a bool mask
    of shape (1, heads, head_dim) keeping head_dim - int(head_dim * ratio) channels per head.
    """
    head_dim = key_states.shape[-1]
    keep = head_dim - int(head_dim * ratio)
    q_obs = query_states[:, :, -window_size:]
    score = q_obs.abs().sum(dim=2) * key_states.abs().sum(dim=2)
    top = score.topk(keep, dim=-1).indices
    return torch.zeros_like(score, dtype=torch.bool).scatter_(-1, top, True)


def prune_key_states(key_states, mask):
    """key_states: (1, heads, seq_len, head_dim), mask: (1, heads, head_dim).

    Returns the kept channels laid out as (1, heads, seq_len, keep).
    """
    b, heads, seq_len, _ = key_states.shape
    channel_mask = mask.unsqueeze(2).expand(-1, -1, seq_len, -1)
    return key_states[channel_mask].view(b, heads, seq_len, -1)


def recover_cache(key_states_pruned, mask, ratio=0.4):
    """Scatters pruned keys back into zero-filled keys of shape (1, heads, seq_len, head_dim).

    key_states_pruned: flat tensor holding the kept channel values, (heads * seq_len * keep,),
    in the order produced by boolean-mask indexing; mask: (1, heads, head_dim).
    """
    _, heads, head_dim = mask.shape
    k = head_dim - int(head_dim * ratio)
    sqlen = int(key_states_pruned.shape[-1] / (k * heads))
    mask = mask.unsqueeze(2).expand(-1, -1, sqlen, -1)
    recovered_key_states = torch.zeros(1, heads, sqlen, head_dim, dtype=key_states_pruned.dtype)
    recovered_key_states[mask] = key_states_pruned
    return recovered_key_states


class ThinKCache:
    def __init__(self, ratio, window_size):
        self.ratio = ratio
        self.window_size = window_size
        self.key_cache_pruned, self.masks, self.value_cache = [], [], []

    def prefill(self, query_states, key_states, value_states):
        mask = select_key_channels(query_states, key_states, self.ratio, self.window_size)
        self.masks.append(mask)
        self.key_cache_pruned.append(prune_key_states(key_states, mask))
        self.value_cache.append(value_states)

    def keys_for_attention(self, layer_idx):
        return recover_cache(self.key_cache_pruned[layer_idx], self.masks[layer_idx], self.ratio)


def decode_attention(query_states, cache, layer_idx):
    """query_states: (1, heads, 1, head_dim); attends over the recovered key cache."""
    keys = cache.keys_for_attention(layer_idx)
    values = cache.value_cache[layer_idx]
    scores = query_states @ keys.transpose(-1, -2) / math.sqrt(query_states.shape[-1])
    return scores.softmax(dim=-1) @ values


if __name__ == "__main__":
    torch.manual_seed(0)
    heads, seq_len, head_dim = 4, 24, 16
    q = torch.randn(1, heads, seq_len, head_dim)
    k = torch.randn(1, heads, seq_len, head_dim)
    v = torch.randn(1, heads, seq_len, head_dim)
    cache = ThinKCache(ratio=0.4, window_size=8)
    cache.prefill(q, k, v)
    out = decode_attention(torch.randn(1, heads, 1, head_dim), cache, layer_idx=0)
    print("decode output:", tuple(out.shape))
