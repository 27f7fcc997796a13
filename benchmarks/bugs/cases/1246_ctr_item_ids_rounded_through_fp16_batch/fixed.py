import torch
import torch.nn as nn


class CTRModel(nn.Module):
    def __init__(self, n_users, n_items, n_dense, dim):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.dense_proj = nn.Linear(n_dense, dim)
        self.head = nn.Linear(3 * dim, 1)

    def forward(self, packed):
        ids, dense = packed
        user = ids[:, 0]
        item = ids[:, 1]
        dense = dense.float()
        u = self.user_emb.weight.index_select(0, user)
        i = self.item_emb.weight.index_select(0, item)
        d = torch.relu(self.dense_proj(dense))
        return self.head(torch.cat([u, i, d], dim=1)).squeeze(1)


def pack_batch(user_ids, item_ids, dense):
    return torch.stack([user_ids, item_ids], dim=1), dense


def compress_for_transfer(packed):
    ids, dense = packed
    return ids, dense.to(torch.float16)  # ids stay int64: fp16 holds integers exactly only up to 2048


@torch.no_grad()
def score(model, user_ids, item_ids, dense):
    packed = compress_for_transfer(pack_batch(user_ids, item_ids, dense))
    return model(packed)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CTRModel(n_users=3000, n_items=50000, n_dense=4, dim=16).eval()
    user_ids = torch.randint(0, 3000, (6,))
    item_ids = torch.tensor([17, 2101, 4097, 12345, 33333, 49999])
    dense = torch.randn(6, 4)
    out = score(model, user_ids, item_ids, dense)
    with torch.no_grad():
        dense_h = dense.to(torch.float16).float()
        for b in range(6):
            u = model.user_emb.weight[int(user_ids[b])]
            i = model.item_emb.weight[int(item_ids[b])]
            d = torch.relu(model.dense_proj(dense_h[b]))
            ref = model.head(torch.cat([u, i, d]))[0]
            assert torch.allclose(out[b], ref, atol=1e-5), (b, out[b], ref)
    print("ok")
