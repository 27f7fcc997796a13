import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

config = {"batch_size": 4, "num_classes": 3, "in_features": 6, "num_samples": 10}


def build_loader(cfg):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(cfg["num_samples"], cfg["in_features"], generator=g)
    y = torch.randint(0, cfg["num_classes"], (cfg["num_samples"],), generator=g)
    return DataLoader(TensorDataset(x, y), batch_size=cfg["batch_size"], shuffle=False)


def per_class_accuracy(model, loader, cfg):
    n_class_correct = [0] * cfg["num_classes"]
    n_class_samples = [0] * cfg["num_classes"]
    with torch.no_grad():
        for features, labels in loader:
            _, predicted = torch.max(model(features), 1)
            for i in range(cfg["batch_size"]):
                label = labels[i]
                pred = predicted[i]
                if label == pred:
                    n_class_correct[label] += 1
                n_class_samples[label] += 1
    return [c / max(n, 1) for c, n in zip(n_class_correct, n_class_samples)], n_class_samples


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(config["in_features"], config["num_classes"])
    acc, counts = per_class_accuracy(model, build_loader(config), config)
    print(acc, counts)
