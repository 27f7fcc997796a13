import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class AssayDataset(Dataset):
    def __init__(self, features, assay_ids, values):
        self.features, self.assay_ids, self.values = features, assay_ids, values

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return {"x": self.features[i], "assay": self.assay_ids[i], "y": self.values[i]}


class MultiAssayRegressor(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(cfg["in_dim"], cfg["hidden"]), nn.ReLU())
        self.heads = nn.Linear(cfg["hidden"], cfg["n_assays"])

    def forward(self, x, assay):
        all_preds = self.heads(self.body(x))
        return all_preds.gather(1, assay.unsqueeze(1))


def regression_loss(pred, target, weight):
    return (weight * (pred - target) ** 2).mean()


def evaluate(model, loader, assay_weights):
    total, count = 0.0, 0
    with torch.no_grad():
        for batch in loader:
            pred = model(batch["x"], batch["assay"])
            w = assay_weights[batch["assay"]]
            total += regression_loss(pred, batch["y"], w).item() * len(batch["y"])
            count += len(batch["y"])
    return total / count


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"in_dim": 12, "hidden": 32, "n_assays": 5}
    n = 96
    data = AssayDataset(torch.randn(n, cfg["in_dim"]), torch.randint(0, cfg["n_assays"], (n,)), torch.randn(n))
    loader = DataLoader(data, batch_size=32)
    model = MultiAssayRegressor(cfg)
    weights = torch.tensor([1.0, 0.5, 2.0, 1.0, 1.5])
    with torch.no_grad():
        full = model.heads(model.body(data.features))
    per_sample = [weights[data.assay_ids[i]] * (full[i, data.assay_ids[i]] - data.values[i]) ** 2 for i in range(n)]
    print("weighted val MSE:", evaluate(model, loader, weights), "per-sample reference:", torch.stack(per_sample).mean().item())
