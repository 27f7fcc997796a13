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
            for i in range(labels.size(0)):
                label = labels[i]
                pred = predicted[i]
                if label == pred:
                    n_class_correct[label] += 1
                n_class_samples[label] += 1
    return [c / max(n, 1) for c, n in zip(n_class_correct, n_class_samples)], n_class_samples


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(config["in_features"], config["num_classes"])
    loader = build_loader(config)
    acc, counts = per_class_accuracy(model, loader, config)
    xs, ys = loader.dataset.tensors
    with torch.no_grad():
        preds = model(xs).argmax(1).tolist()
    ref_c = [0] * 3
    ref_n = [0] * 3
    for p, t in zip(preds, ys.tolist()):
        ref_n[t] += 1
        ref_c[t] += int(p == t)
    assert counts == ref_n and sum(counts) == config["num_samples"]
    assert acc == [c / max(n, 1) for c, n in zip(ref_c, ref_n)]
    print("ok")
