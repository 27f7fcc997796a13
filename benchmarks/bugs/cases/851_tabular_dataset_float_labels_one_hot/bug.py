import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class WineQualityDataset(Dataset):
    """Rows of a numeric table; the last column is the quality grade.

    Returns:
        features: (num_features,) float32
        grade: () the quality grade of the row
    """

    def __init__(self, table: np.ndarray):
        self.table = torch.from_numpy(table.astype(np.float32))

    def __len__(self):
        return self.table.shape[0]

    def __getitem__(self, i):
        row = self.table[i]
        return row[:-1], row[-1]


def soft_target_loss(logits, grades, num_grades, smoothing=0.1):
    """Cross-entropy against a label-smoothed one-hot target.

    Args:
        logits: (batch, num_grades) scores
        grades: (batch,) grade of each row
    Returns:
        scalar loss
    """
    target = F.one_hot(grades, num_grades).float()
    target = target * (1 - smoothing) + smoothing / num_grades
    return -(target * F.log_softmax(logits, dim=-1)).sum(-1).mean()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    num_grades = 10
    feats = rng.normal(size=(32, 11))
    grades = rng.integers(0, num_grades, size=(32, 1))
    loader = DataLoader(WineQualityDataset(np.concatenate([feats, grades], 1)), batch_size=8)
    model = nn.Linear(11, num_grades)
    for x, y in loader:
        loss = soft_target_loss(model(x), y, num_grades)
        print("loss", loss.item())
        break
