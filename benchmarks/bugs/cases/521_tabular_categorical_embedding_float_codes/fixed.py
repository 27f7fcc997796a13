import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CAT_COLUMNS = ["workclass", "education", "marital_status"]
NUM_COLUMNS = ["age", "hours_per_week"]


class IncomeDataset(Dataset):
    def __init__(self, table: np.ndarray, labels: np.ndarray):
        self.table = table
        self.labels = labels

    def __len__(self):
        return len(self.table)

    def __getitem__(self, i):
        n_cat = len(CAT_COLUMNS)
        codes = torch.tensor(self.table[i, :n_cat], dtype=torch.long)
        numeric = torch.tensor(self.table[i, n_cat:], dtype=torch.float32)
        return codes, numeric, torch.tensor(self.labels[i], dtype=torch.long)


class IncomeModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(4, 8) for _ in CAT_COLUMNS])
        self.head = nn.Sequential(nn.Linear(8 * len(CAT_COLUMNS) + len(NUM_COLUMNS), 32), nn.ReLU(), nn.Linear(32, 2))

    def features(self, cat_codes, numeric):
        embedded = [emb(cat_codes[:, j]) for j, emb in enumerate(self.embeddings)]
        return torch.cat(embedded + [numeric], dim=1)

    def forward(self, cat_codes, numeric):
        return self.head(self.features(cat_codes, numeric))


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 4, size=(64, len(CAT_COLUMNS)))
    numeric = rng.normal(size=(64, len(NUM_COLUMNS)))
    table = np.concatenate([codes, numeric], axis=1)
    labels = rng.integers(0, 2, size=64)
    loader = DataLoader(IncomeDataset(table, labels), batch_size=16, shuffle=False)
    model = IncomeModel()
    cat_codes, num, y = next(iter(loader))
    feats = model.features(cat_codes, num)
    for i in range(cat_codes.shape[0]):
        ref = []
        for j, emb in enumerate(model.embeddings):
            ref.extend(emb.weight[int(codes[i, j])].tolist())
        ref.extend(float(v) for v in numeric[i])
        assert torch.allclose(feats[i], torch.tensor(ref, dtype=torch.float32), atol=1e-6)
    logits = model(cat_codes, num)
    assert logits.shape == (16, 2)
    print("ok")
