import torch
from jaxtyping import Float, Int


class TokenToKVPoolWithIndexer:
    """KV pool whose indexer keys are stored one row per page."""

    def __init__(self, size: int, page_size: int, head_dim: int, index_dim: int):
        self.page_size = page_size
        num_pages = (size + page_size) // page_size
        self.kv_buffer: Float[torch.Tensor, "tokens head_dim"] = torch.zeros(size + page_size, head_dim)
        self.index_k_buffer: Float[torch.Tensor, "pages page_x_index_dim"] = torch.zeros(
            num_pages, page_size * index_dim
        )

    def move_kv_cache(self, tgt_loc: Int[torch.Tensor, "n_tokens"], src_loc: Int[torch.Tensor, "n_tokens"]) -> None:
        tgt_flat = tgt_loc.view(-1).long()
        src_flat = src_loc.view(-1).long()
        self.kv_buffer[tgt_flat] = self.kv_buffer[src_flat]
        tgt_pages = tgt_flat.view(-1, self.page_size)[:, 0] // self.page_size
        src_pages = src_flat.view(-1, self.page_size)[:, 0] // self.page_size
        self.index_k_buffer[tgt_pages] = self.index_k_buffer[src_pages]


def compact_request(pool: TokenToKVPoolWithIndexer, old_pages: list, new_pages: list) -> None:
    ps = pool.page_size
    src = torch.cat([torch.arange(p * ps, (p + 1) * ps) for p in old_pages])
    tgt = torch.cat([torch.arange(p * ps, (p + 1) * ps) for p in new_pages])
    pool.move_kv_cache(tgt, src)


if __name__ == "__main__":
    torch.manual_seed(0)
    pool = TokenToKVPoolWithIndexer(size=16, page_size=4, head_dim=3, index_dim=2)
    pool.kv_buffer.copy_(torch.randn_like(pool.kv_buffer))
    pool.index_k_buffer.copy_(torch.randn_like(pool.index_k_buffer))
    kv_before = pool.kv_buffer.clone()
    idx_before = pool.index_k_buffer.clone()
    compact_request(pool, old_pages=[3, 4], new_pages=[0, 1])
    for old, new in zip([3, 4], [0, 1]):
        assert torch.equal(pool.index_k_buffer[new], idx_before[old])
        for t in range(4):
            assert torch.equal(pool.kv_buffer[new * 4 + t], kv_before[old * 4 + t])
    for p in (2, 3, 4):
        assert torch.equal(pool.index_k_buffer[p], idx_before[p])
    print("ok")
