import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor
from torch.utils.data import DataLoader, Dataset


class InteractionLog(Dataset):
    """Rows of (item_id, price, dwell_seconds, clicked)."""

    def __init__(self, rows, feature_dtype=torch.float16):
        self.rows = rows
        self.feature_dtype = feature_dtype

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        item_id, price, dwell, clicked = self.rows[i]
        feats = torch.tensor([item_id, price, dwell], dtype=self.feature_dtype)
        return feats, torch.tensor(float(clicked))


class ItemScorer(nn.Module):
    def __init__(self, num_items: int, dim: int):
        super().__init__()
        self.item_table = nn.Parameter(torch.randn(num_items, dim))
        self.dense = nn.Linear(2, dim)

    def forward(self, feats: Float[Tensor, "batch 3"]) -> Float[Tensor, "batch"]:
        item_ids: Int[Tensor, "batch"] = feats[:, 0].long()
        item_vec: Float[Tensor, "batch dim"] = self.item_table.index_select(0, item_ids)
        side: Float[Tensor, "batch dim"] = self.dense(feats[:, 1:].float())
        return (item_vec * side).sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    rows = [(17, 9.99, 31.0, 1), (2049, 4.5, 12.0, 0), (3001, 19.0, 3.5, 1), (5000, 2.25, 60.0, 0)]
    loader = DataLoader(InteractionLog(rows), batch_size=4)
    model = ItemScorer(num_items=6000, dim=8)
    feats, clicked = next(iter(loader))
    scores = model(feats)
    print("item ids looked up:", feats[:, 0].long().tolist())
    print("scores:", scores.detach().tolist())
