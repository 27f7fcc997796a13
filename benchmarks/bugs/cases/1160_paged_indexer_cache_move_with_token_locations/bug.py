import torch


class IndexerKeyPool:
    def __init__(self, num_tokens, page_size, key_dim, num_layers):
        self.page_size = page_size
        self.key_dim = key_dim
        num_pages = num_tokens // page_size
        self.buffers = [
            torch.zeros(num_pages, page_size * key_dim + page_size) for _ in range(num_layers)
        ]

    def write(self, layer, loc, keys, scales):
        buf = self.buffers[layer]
        P, D = self.page_size, self.key_dim
        for t, token_loc in enumerate(loc.tolist()):
            page, off = divmod(token_loc, P)
            buf[page, off * D:(off + 1) * D] = keys[t]
            buf[page, P * D + off] = scales[t]

    def read(self, layer, loc):
        buf = self.buffers[layer]
        P, D = self.page_size, self.key_dim
        page, off = loc // P, loc % P
        cols = off.unsqueeze(1) * D + torch.arange(D)
        keys = buf[page.unsqueeze(1), cols]
        scales = buf[page, P * D + off]
        return keys, scales

    def move(self, tgt_loc, src_loc):
        for buf in self.buffers:
            buf[tgt_loc] = buf[src_loc]


def accept_draft_tokens(pool, draft_loc, accepted, target_loc):
    pool.move(target_loc, draft_loc[accepted])


if __name__ == "__main__":
    torch.manual_seed(0)
    pool = IndexerKeyPool(num_tokens=64, page_size=4, key_dim=3, num_layers=2)
    draft_loc = torch.tensor([8, 9, 10, 11])
    for layer in range(2):
        pool.write(layer, draft_loc, torch.randn(4, 3), torch.rand(4))
    before, _ = pool.read(0, draft_loc)
    accept_draft_tokens(pool, draft_loc, torch.tensor([0, 2]), torch.tensor([5, 6]))
    after, _ = pool.read(0, torch.tensor([5, 6]))
    print("draft keys 8, 10:", before[[0, 2]].tolist())
    print("keys now at 5, 6:", after.tolist())
