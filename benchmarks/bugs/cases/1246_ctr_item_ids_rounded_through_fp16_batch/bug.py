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
        user = packed[:, 0].long()
        item = packed[:, 1].long()
        dense = packed[:, 2:].float()
        u = self.user_emb.weight.index_select(0, user)
        i = self.item_emb.weight.index_select(0, item)
        d = torch.relu(self.dense_proj(dense))
        return self.head(torch.cat([u, i, d], dim=1)).squeeze(1)


def pack_batch(user_ids, item_ids, dense):
    return torch.cat([user_ids[:, None].float(), item_ids[:, None].float(), dense], dim=1)


def compress_for_transfer(packed):
    return packed.to(torch.float16)


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
    packed = compress_for_transfer(pack_batch(user_ids, item_ids, dense))
    print("item ids sent:    ", item_ids.tolist())
    print("item ids looked up:", packed[:, 1].long().tolist())
    print("scores:", score(model, user_ids, item_ids, dense).tolist())
