import torch
from torch import nn


class PeriodDataset:
    def __init__(self, records, cfg):
        self.records = records
        self.neg_flag = 2
        self.generator = torch.Generator().manual_seed(cfg["seed"])

    def sample_batch(self, batch_size):
        rows = torch.randint(0, self.records.shape[0], (batch_size,), generator=self.generator)
        batch = self.records[rows]
        neg_cols = torch.randint(self.neg_flag, self.records.shape[1], (batch_size,), generator=self.generator)
        users, pos_items = batch[:, 0], batch[:, 1]
        neg_items = batch.gather(1, neg_cols.unsqueeze(1)).squeeze(1)
        return users, pos_items, neg_items, neg_cols


class MF(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.user = nn.Embedding(cfg["num_users"], cfg["dim"])
        self.item = nn.Embedding(cfg["num_items"], cfg["dim"])

    def bpr_loss(self, users, pos_items, neg_items):
        u = self.user(users)
        diff = (u * self.item(pos_items)).sum(-1) - (u * self.item(neg_items)).sum(-1)
        return -torch.nn.functional.logsigmoid(diff).mean()


def make_records(cfg):
    g = torch.Generator().manual_seed(cfg["seed"] + 1)
    users = torch.randint(0, cfg["num_users"], (cfg["num_records"], 1), generator=g)
    pos = torch.randint(0, cfg["num_items"], (cfg["num_records"], 1), generator=g)
    negs = (pos + torch.randint(1, cfg["num_items"], (cfg["num_records"], cfg["num_negs"]), generator=g)) % cfg["num_items"]
    return torch.cat([users, pos, negs], dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"seed": 3, "num_users": 30, "num_items": 80, "dim": 8, "num_records": 500, "num_negs": 4}
    data = PeriodDataset(make_records(cfg), cfg)
    model = MF(cfg)
    users, pos_items, neg_items, neg_cols = data.sample_batch(256)
    loss = model.bpr_loss(users, pos_items, neg_items)
    assert not (neg_items == pos_items).any()
    for i in range(256):
        assert 2 <= int(neg_cols[i]) < data.records.shape[1]
    ref = 0.0
    for i in range(256):
        u = model.user.weight[users[i]]
        d = (u * model.item.weight[pos_items[i]]).sum() - (u * model.item.weight[neg_items[i]]).sum()
        ref += -torch.nn.functional.logsigmoid(d).item()
    assert abs(loss.item() - ref / 256) < 1e-5
    print("ok")
