import torch


def get_kv_cache_shape(num_blocks, block_size, num_kv_heads, head_size):
    """Blocks-first KV cache shape used by the attention backend.

    Returns:
        tuple: ``(num_blocks, 2, block_size, num_kv_heads, head_size)``; dim 1 holds K and V.
    """
    return (num_blocks, 2, block_size, num_kv_heads, head_size)


def kv_postprocess_layout_on_receive(cache, indices):
    """Fix up KV blocks that a remote (HND) engine wrote into the local (NHD) cache.

    The remote worker copies raw bytes, so each received block still holds
    heads before tokens and must be permuted in place.

    Args:
        cache (torch.Tensor): local cache, ``[num_blocks, 2, block_size, num_kv_heads, head_dim]``.
        indices (torch.LongTensor): ids of the received blocks, ``[num_received]``.

    Layouts:
        source (bytes as written): ``[num_blocks, 2, num_kv_heads, block_size, head_dim]``
        target (local): ``[num_blocks, 2, block_size, num_kv_heads, head_dim]``
    """
    blocks_to_update = cache.index_select(0, indices)
    target_shape = list(blocks_to_update.shape)
    target_shape[0] = -1
    inv_order = [0, 1, 3, 2, 4] if blocks_to_update.dim() == 5 else [0, 2, 1, 3]
    src_shape = tuple(target_shape[i] for i in inv_order)
    permuted_blocks = blocks_to_update.reshape(src_shape).permute(*inv_order)
    cache.index_copy_(0, indices, permuted_blocks)


class DecodeWorker:
    def __init__(self, cfg):
        self.cfg = cfg
        self.kv_cache = torch.zeros(get_kv_cache_shape(
            cfg["num_blocks"], cfg["block_size"], cfg["num_kv_heads"], cfg["head_size"]))

    def receive(self, block_ids, remote_blocks):
        # raw byte copy of HND blocks into the NHD cache, as the transfer engine does
        for block_id, block in zip(block_ids.tolist(), remote_blocks):
            self.kv_cache[block_id] = block.reshape(self.kv_cache.shape[1:])
        kv_postprocess_layout_on_receive(self.kv_cache, block_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_blocks": 8, "block_size": 4, "num_kv_heads": 2, "head_size": 3}
    worker = DecodeWorker(cfg)
    block_ids = torch.tensor([5, 1, 6])
    remote = torch.randn(3, 2, cfg["num_kv_heads"], cfg["block_size"], cfg["head_size"])  # HND
    worker.receive(block_ids, remote)
    for r, block_id in enumerate(block_ids.tolist()):
        for kv in range(2):
            for t in range(cfg["block_size"]):
                for hd in range(cfg["num_kv_heads"]):
                    assert torch.equal(worker.kv_cache[block_id, kv, t, hd], remote[r, kv, hd, t])
    untouched = [b for b in range(cfg["num_blocks"]) if b not in block_ids.tolist()]
    assert worker.kv_cache[untouched].abs().sum() == 0
    print("ok")
