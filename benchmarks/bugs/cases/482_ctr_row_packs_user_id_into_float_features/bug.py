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
        features = torch.tensor(rec["dense"] + [rec["user_id"]], dtype=torch.float32)
        return features, torch.tensor(rec["clicked"], dtype=torch.float32)


class HashedCTRModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.user_emb = nn.Embedding(cfg["hash_buckets"], cfg["embed_dim"])
        self.head = nn.Linear(cfg["num_dense"] + cfg["embed_dim"], 1)

    def user_vectors(self, features):
        bucket = features[:, -1].long() % self.cfg["hash_buckets"]
        return self.user_emb(bucket)

    def forward(self, features):
        dense = features[:, : self.cfg["num_dense"]]
        return self.head(torch.cat([dense, self.user_vectors(features)], dim=-1)).squeeze(-1)


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
    seen = {}
    for features, labels in loader:
        vecs = model.user_vectors(features)
        loss = nn.functional.binary_cross_entropy_with_logits(model(features), labels)
        for v in vecs:
            seen.setdefault(tuple(v.tolist()), 0)
            seen[tuple(v.tolist())] += 1
    print("users:", len(records), "distinct user vectors:", len(seen), "last loss:", round(loss.item(), 4))
