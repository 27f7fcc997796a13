import torch
from torch.utils.data import Dataset


class SequencePairs(Dataset):
    def __init__(self, features, person_ids, cfg):
        self.features = features
        self.person_ids = person_ids
        self.seq_len = cfg["seq_len"]
        g = torch.Generator().manual_seed(cfg["seed"])
        self.order = torch.randperm(len(person_ids), generator=g)
        self.cfg = cfg

    def __len__(self):
        return 2 * len(self.person_ids)

    def clip(self, person, cam):
        return self.features[person, cam, : self.seq_len]

    def __getitem__(self, i):
        if i % 2 == 0:
            person = self.order[i // 2]
            return self.clip(person, 0), self.clip(person, 1), torch.tensor(1.0)
        a = self.order[(i - 1) // 2]
        b = self.order[((i - 1) // 2 + 1) % len(self.order)]
        return self.clip(a, 0), self.clip(b, 1), torch.tensor(-1.0)


def build(cfg):
    torch.manual_seed(cfg["seed"])
    feats = torch.randn(cfg["people"], 2, cfg["frames"], cfg["dim"])
    return SequencePairs(feats, list(range(cfg["people"])), cfg)


if __name__ == "__main__":
    cfg = {"people": 6, "frames": 12, "dim": 5, "seq_len": 8, "seed": 3}
    ds = build(cfg)
    order = ds.order.tolist()
    for i in range(len(ds)):
        a, b, y = ds[i]
        k = i // 2
        p = order[k]
        q = p if i % 2 == 0 else order[(k + 1) % len(order)]
        ref_a = torch.stack([ds.features[p][0][t] for t in range(cfg["seq_len"])])
        ref_b = torch.stack([ds.features[q][1][t] for t in range(cfg["seq_len"])])
        assert torch.equal(a, ref_a) and torch.equal(b, ref_b)
        assert float(y) == (1.0 if i % 2 == 0 else -1.0)
    print("ok")
