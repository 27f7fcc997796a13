import torch
from torch.utils.data import Dataset, DataLoader

CONFIG = {"num_users": 16_777_400, "num_items": 50, "batch_size": 4}


class RatingsDataset(Dataset):
    def __init__(self, triples):
        self.triples = triples

    def __len__(self):
        return len(self.triples)

    def __getitem__(self, i):
        user, item, rating = self.triples[i]
        return torch.tensor([user, item], dtype=torch.long), torch.tensor(rating)


class BiasModel(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.user_bias = torch.nn.Parameter(torch.zeros(cfg["num_users"]))
        self.item_bias = torch.nn.Parameter(torch.zeros(cfg["num_items"]))

    def forward(self, ids):
        users = ids[:, 0]
        items = ids[:, 1]
        return self.user_bias.index_select(0, users) + self.item_bias.index_select(0, items)


def build(cfg):
    model = BiasModel(cfg)
    with torch.no_grad():
        model.user_bias.copy_(torch.arange(cfg["num_users"], dtype=torch.float32) % 7)
    triples = [(16_777_217, 3, 4.0), (16_777_219, 8, 2.0), (12, 1, 5.0), (16_777_291, 0, 1.0)]
    return model, RatingsDataset(triples), triples


if __name__ == "__main__":
    model, ds, triples = build(CONFIG)
    ids, ratings = next(iter(DataLoader(ds, batch_size=CONFIG["batch_size"])))
    pred = model(ids)
    ref = [float(model.user_bias[u].detach()) + float(model.item_bias[it].detach()) for u, it, _ in triples]
    assert pred.tolist() == ref, (pred.tolist(), ref)
    print("ok")
