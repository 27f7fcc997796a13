import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

NUM_ITEMS = 20_000_000


class ClickLog(Dataset):
    """Click log rows.

    Each item is a pair: int64 ids of shape (2,) (user id, item id) and a float tensor of
    shape (2,) (dwell seconds, rating).
    """

    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        user, item, dwell, rating = self.rows[i]
        return torch.tensor([user, item]), torch.tensor([dwell, rating], dtype=torch.float32)


def collate(samples):
    """Stacks rows into (B, 2) int64 ids and (B, 2) float32 features."""
    ids, feats = zip(*samples)
    return torch.stack(ids, dim=0), torch.stack(feats, dim=0)


class ItemPrior(nn.Module):
    """Looks up a per-item popularity prior.

    Args:
        num_items: catalog size; the prior table has shape (num_items,).
    """

    def __init__(self, num_items):
        super().__init__()
        self.register_buffer("prior", (torch.arange(num_items) % 997).float())

    def forward(self, batch):
        """
        Args:
            batch: (ids, feats) from ``collate``; ids has shape (B, 2).
        Returns:
            (B,) prior of the clicked item.
        """
        ids, _ = batch
        item_ids = ids[:, 1]
        return self.prior.index_select(0, item_ids)


if __name__ == "__main__":
    rows = [(7, 16_777_217, 3.5, 4.0), (8, 18_000_001, 12.0, 5.0), (9, 1_234, 1.0, 2.0)]
    loader = DataLoader(ClickLog(rows), batch_size=3, collate_fn=collate)
    model = ItemPrior(NUM_ITEMS)
    for batch in loader:
        got = model(batch).tolist()
        for g, r in zip(got, rows):
            assert g == float(r[1] % 997), (g, r)
    print("ok")
