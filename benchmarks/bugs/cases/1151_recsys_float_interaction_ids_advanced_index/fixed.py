import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class RatingTriples(Dataset):
    def __init__(self, table):
        # table: user_id, item_id, rating  (loaded from a csv with np.loadtxt)
        self.table = table

    def __len__(self):
        return len(self.table)

    def __getitem__(self, i):
        user, item, rating = self.table[i]
        return torch.tensor(int(user)), torch.tensor(int(item)), torch.tensor(rating)


class MatrixFactorization(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user_factors = nn.Parameter(torch.randn(n_users, dim) * 0.1)
        self.item_factors = nn.Parameter(torch.randn(n_items, dim) * 0.1)

    def forward(self, users, items):
        scores = self.user_factors @ self.item_factors.T
        return scores[users, items]


def train_step(model, batch):
    users, items, ratings = batch
    pred = model(users, items).detach()
    return ((pred - ratings.float()) ** 2).mean()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    table = np.stack([rng.integers(0, 20, 64), rng.integers(0, 30, 64), rng.integers(1, 6, 64)], axis=1).astype(np.float32)
    loader = DataLoader(RatingTriples(table), batch_size=16, shuffle=False)
    model = MatrixFactorization(20, 30, 8)
    batch = next(iter(loader))
    users, items, ratings = batch
    pred = model(users, items).detach()
    U, V = model.user_factors.detach(), model.item_factors.detach()
    for k in range(len(users)):
        u, it = int(table[k, 0]), int(table[k, 1])
        ref = sum(float(U[u, d]) * float(V[it, d]) for d in range(U.shape[1]))
        assert abs(float(pred[k]) - ref) < 1e-5
    loss = train_step(model, batch)
    assert torch.isfinite(loss)
    print("ok")
