import torch
import torch.nn as nn


class PopRecommender(nn.Module):
    """Most-popular baseline: scores every item by how often it was seen in training."""

    def __init__(self, config):
        super().__init__()
        self.n_items = config["n_items"]
        self.device = config.get("device", "cpu")
        self.register_buffer("item_cnt", torch.zeros(self.n_items, 1, dtype=torch.long))
        self.register_buffer("max_cnt", torch.zeros(1, dtype=torch.long))
        self.fake_loss = nn.Parameter(torch.zeros(1))

    def calculate_loss(self, interaction):
        item = interaction["item_id"]
        self.item_cnt[item, :] = self.item_cnt[item, :] + 1
        self.max_cnt = torch.max(self.item_cnt, dim=0)[0]
        return self.fake_loss

    def full_sort_predict(self, interaction):
        batch_size = interaction["user_id"].shape[0]
        result = self.item_cnt.to(torch.float64) / self.max_cnt.to(torch.float64)
        return result.squeeze(-1).repeat(batch_size)


def make_batches(n_items, n_batches, batch_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    popularity = torch.linspace(3.0, 0.1, n_items)
    for _ in range(n_batches):
        items = torch.multinomial(popularity, batch_size, replacement=True, generator=g)
        users = torch.randint(0, 50, (batch_size,), generator=g)
        yield {"user_id": users, "item_id": items}


if __name__ == "__main__":
    config = {"n_items": 20, "device": "cpu"}
    model = PopRecommender(config)
    seen = []
    for batch in make_batches(config["n_items"], n_batches=10, batch_size=64):
        model.calculate_loss(batch)
        seen.extend(batch["item_id"].tolist())
    ref = [0] * config["n_items"]
    for i in seen:
        ref[i] += 1
    print("counted interactions:", int(model.item_cnt.sum()), "actual:", len(seen))
    print("item 0 count:", int(model.item_cnt[0]), "actual:", ref[0])
