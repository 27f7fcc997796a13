import torch


def to_one_hot(y, n_classes=2):
    n = y.shape[0]
    y_hot = torch.zeros(n, n_classes)
    y_hot[torch.arange(n), y.long().view(-1)] = 1.0
    return y_hot


def threshold_predictions(y_pred, threshold=None):
    if threshold is None:
        return y_pred.argmax(dim=1)
    return (y_pred[:, 1] >= threshold).long()


def accuracy_score(y_true_hot, y_pred_hot):
    return (y_true_hot == y_pred_hot).all(dim=1).float().mean().item()


def compute_metric(dataset, y_pred, cfg):
    y_true = to_one_hot(dataset["y"], n_classes=cfg["n_classes"])
    y_pred = to_one_hot(threshold_predictions(y_pred, cfg["threshold"]), n_classes=cfg["n_classes"])
    return accuracy_score(y_true, y_pred), y_true


def make_dataset(cfg):
    n = cfg["n_samples"]
    return {"X": torch.randn(n, cfg["n_features"]),
            "y": torch.randint(0, cfg["n_classes"], (n, cfg["n_tasks"])).float(),
            "w": torch.ones(n, cfg["n_tasks"])}


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"n_samples": 12, "n_features": 5, "n_tasks": 1, "n_classes": 2, "threshold": None}
    dataset = make_dataset(cfg)
    probs = torch.softmax(torch.randn(cfg["n_samples"], cfg["n_classes"]), dim=1)
    acc, y_true_hot = compute_metric(dataset, probs, cfg)
    labels = dataset["y"].view(-1).long().tolist()
    pred = threshold_predictions(probs, cfg["threshold"]).tolist()
    ref_acc = sum(int(a == b) for a, b in zip(labels, pred)) / len(labels)
    ref_hot = torch.zeros(cfg["n_samples"], cfg["n_classes"])
    for i, c in enumerate(labels):
        ref_hot[i, c] = 1.0
    assert torch.equal(y_true_hot, ref_hot) and abs(acc - ref_acc) < 1e-6
    print("ok")
