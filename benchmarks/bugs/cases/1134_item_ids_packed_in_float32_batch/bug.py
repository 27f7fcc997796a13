import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

NUM_ITEMS = 20_000_000


class ClickLog(Dataset):
    """Click log rows.

    Each item is a float tensor of shape (4,): user id, item id, dwell seconds, rating.
    """

    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        user, item, dwell, rating = self.rows[i]
        return torch.tensor([user, item, dwell, rating], dtype=torch.float32)


def collate(samples):
    """Stacks rows into a (B, 4) float32 batch."""
    return torch.stack(samples, dim=0)


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
            batch: (B, 4) rows from ``collate``.
        Returns:
            (B,) prior of the clicked item.
        """
        item_ids = batch[:, 1].long()
        return self.prior.index_select(0, item_ids)


if __name__ == "__main__":
    rows = [(7, 16_777_217, 3.5, 4.0), (8, 18_000_001, 12.0, 5.0), (9, 1_234, 1.0, 2.0)]
    loader = DataLoader(ClickLog(rows), batch_size=3, collate_fn=collate)
    model = ItemPrior(NUM_ITEMS)
    for batch in loader:
        print("prior:", model(batch).tolist())
        print("expected:", [float(r[1] % 997) for r in rows])
