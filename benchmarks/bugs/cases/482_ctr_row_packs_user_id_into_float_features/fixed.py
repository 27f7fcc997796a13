import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CONFIG = {"num_dense": 3, "hash_buckets": 1000, "embed_dim": 8, "batch_size": 16}


class ClickLogDataset(Dataset):
    def __init__(self, records):
        self.records = records

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        rec = self.records[i]
        dense = torch.tensor(rec["dense"], dtype=torch.float32)
        user_id = torch.tensor(rec["user_id"], dtype=torch.long)
        return dense, user_id, torch.tensor(rec["clicked"], dtype=torch.float32)


class HashedCTRModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.user_emb = nn.Embedding(cfg["hash_buckets"], cfg["embed_dim"])
        self.head = nn.Linear(cfg["num_dense"] + cfg["embed_dim"], 1)

    def user_vectors(self, user_ids):
        bucket = user_ids % self.cfg["hash_buckets"]
        return self.user_emb(bucket)

    def forward(self, dense, user_ids):
        return self.head(torch.cat([dense, self.user_vectors(user_ids)], dim=-1)).squeeze(-1)


def make_records(n, first_user_id):
    g = torch.Generator().manual_seed(0)
    return [
        {"dense": torch.rand(CONFIG["num_dense"], generator=g).tolist(),
         "user_id": first_user_id + i, "clicked": float(i % 3 == 0)}
        for i in range(n)
    ]


if __name__ == "__main__":
    torch.manual_seed(0)
    records = make_records(48, first_user_id=16_777_200)
    loader = DataLoader(ClickLogDataset(records), batch_size=CONFIG["batch_size"])
    model = HashedCTRModel(CONFIG)
    row = 0
    for dense, user_ids, labels in loader:
        vecs = model.user_vectors(user_ids)
        loss = nn.functional.binary_cross_entropy_with_logits(model(dense, user_ids), labels)
        for v in vecs:
            expected = model.user_emb.weight[records[row]["user_id"] % CONFIG["hash_buckets"]]
            assert torch.equal(v, expected)
            row += 1
    assert row == len(records) and torch.isfinite(loss)
    print("ok")
