import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

TRAIN_ROWS = [[0, 3, 1], [2, 1, 0], [1, 0, 4], [2, 3, 2]]
EVAL_ROWS = [[1, 2, 3], [3, 0, 1]]


class CriteoLikeDataset(Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        xi = torch.tensor(self.rows[i], dtype=torch.long)
        xv = torch.ones(len(self.rows[i]))
        return xi, xv


def field_sizes(rows):
    return [len({r[f] for r in rows}) for f in range(len(rows[0]))]


class FMFirstOrder(nn.Module):
    def __init__(self, feature_sizes):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(n, 1) for n in feature_sizes])

    def forward(self, xi, xv):
        terms = [emb(xi[:, f]).squeeze(-1) * xv[:, f] for f, emb in enumerate(self.embs)]
        return torch.stack(terms, dim=1).sum(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = FMFirstOrder(field_sizes(TRAIN_ROWS))
    for xi, xv in DataLoader(CriteoLikeDataset(EVAL_ROWS), batch_size=2):
        print("scores", model(xi, xv))
