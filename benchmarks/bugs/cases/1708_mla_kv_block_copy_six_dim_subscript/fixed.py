from collections import defaultdict

import torch


def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size, use_mla):
    """Return the per-layer KV cache shape of the attention backend.

    Returns:
        ``(num_blocks, block_size, head_size)`` for the MLA backend (one latent vector per
        slot), ``(2, num_blocks, num_kv_heads, 1, block_size, head_size)`` otherwise.
    """
    if use_mla:
        return (num_blocks, block_size, head_size)
    return (2, num_blocks, num_kv_heads, 1, block_size, head_size)


class ModelRunner:
    def __init__(self, kv_caches, use_mla):
        self.kv_caches = kv_caches
        self.use_mla = use_mla

    def apply_block_copies(self, copy_ops):
        """Copy the first ``num_tokens`` slots of a cached block into a freshly allocated block.

        Args:
            copy_ops: list of ``(src_block, dst_block, num_tokens)`` from the prefix cache
                (automatic prefix caching hands out partially filled blocks this way).

        ``self.kv_caches`` holds one tensor per layer, shaped as returned by
        ``get_kv_cache_shape``.
        """
        grouped = defaultdict(list)
        for src, dst, num_tokens in copy_ops:
            grouped[num_tokens].append((src, dst))
        for nt, pairs in grouped.items():
            src = torch.tensor([p[0] for p in pairs])
            dst = torch.tensor([p[1] for p in pairs])
            for layer_cache in self.kv_caches:
                if self.use_mla:
                    layer_cache[dst, :nt] = layer_cache[src, :nt]
                else:
                    layer_cache[:, dst, :, :, :nt, :] = layer_cache[:, src, :, :, :nt, :]


if __name__ == "__main__":
    torch.manual_seed(0)
    model_config = {"use_mla": True, "num_layers": 2, "num_blocks": 12, "block_size": 16, "num_kv_heads": 1, "head_size": 64}
    shape = get_kv_cache_shape(model_config["num_blocks"], model_config["block_size"], model_config["num_kv_heads"],
                               model_config["head_size"], model_config["use_mla"])
    caches = [torch.randn(shape) for _ in range(model_config["num_layers"])]
    expected = [c.clone() for c in caches]
    ops = [(3, 7, 5), (4, 9, 5), (1, 10, 11)]
    for cache in expected:
        for src, dst, nt in ops:
            for slot in range(nt):
                cache[dst, slot] = cache[src, slot].clone()
    runner = ModelRunner(caches, use_mla=model_config["use_mla"])
    runner.apply_block_copies(ops)
    for c, e in zip(caches, expected):
        assert torch.equal(c, e)
    print("ok")
