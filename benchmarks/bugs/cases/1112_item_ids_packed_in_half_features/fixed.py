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
        feats = torch.tensor([price, dwell], dtype=self.feature_dtype)
        return torch.tensor(item_id, dtype=torch.long), feats, torch.tensor(float(clicked))


class ItemScorer(nn.Module):
    def __init__(self, num_items: int, dim: int):
        super().__init__()
        self.item_table = nn.Parameter(torch.randn(num_items, dim))
        self.dense = nn.Linear(2, dim)

    def forward(self, item_ids: Int[Tensor, "batch"], feats: Float[Tensor, "batch 2"]) -> Float[Tensor, "batch"]:
        item_vec: Float[Tensor, "batch dim"] = self.item_table.index_select(0, item_ids)
        side: Float[Tensor, "batch dim"] = self.dense(feats.float())
        return (item_vec * side).sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    rows = [(17, 9.99, 31.0, 1), (2049, 4.5, 12.0, 0), (3001, 19.0, 3.5, 1), (5000, 2.25, 60.0, 0)]
    loader = DataLoader(InteractionLog(rows), batch_size=4)
    model = ItemScorer(num_items=6000, dim=8)
    item_ids, feats, clicked = next(iter(loader))
    scores = model(item_ids, feats)
    print("item ids looked up:", item_ids.tolist())
    print("scores:", scores.detach().tolist())

    torch.set_grad_enabled(False)
    for b, (item_id, price, dwell, _) in enumerate(rows):
        side = model.dense(torch.tensor([price, dwell], dtype=torch.float16).float())
        ref = sum(float(model.item_table[item_id, d] * side[d]) for d in range(8))
        assert abs(float(scores[b]) - ref) < 1e-4
    assert item_ids.tolist() == [17, 2049, 3001, 5000]
    print("ok")
