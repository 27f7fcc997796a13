"""Association between two categorical survey answers (Cramer's V, torchmetrics-style nominal metric)."""
import torch


def _nominal_confmat(preds, target, num_classes):
    unique_mapping = (target * num_classes + preds).to(torch.long)
    bins = torch.bincount(unique_mapping, minlength=num_classes**2)
    return bins.reshape(num_classes, num_classes)


def _cramers_v_compute(confmat):
    confmat = confmat.float()
    total = confmat.sum()
    expected = confmat.sum(1, keepdim=True) * confmat.sum(0, keepdim=True) / total
    chi2 = ((confmat - expected) ** 2 / expected).sum()
    n_rows, n_cols = confmat.shape
    return torch.sqrt(chi2 / total / min(n_rows - 1, n_cols - 1))


def cramers_v(preds, target):
    num_classes = len(torch.cat([preds, target]).unique())
    confmat = _nominal_confmat(preds, target, num_classes)
    return _cramers_v_compute(confmat)


def load_answers(cfg):
    gen = torch.Generator().manual_seed(cfg["seed"])
    q1 = torch.tensor(cfg["codes"])[torch.randint(0, len(cfg["codes"]), (cfg["n"],), generator=gen)]
    noise = torch.rand(cfg["n"], generator=gen) < cfg["noise"]
    q2 = torch.where(noise, torch.tensor(cfg["codes"])[torch.randint(0, len(cfg["codes"]), (cfg["n"],), generator=gen)], q1)
    return q1, q2


if __name__ == "__main__":
    cfg = {"seed": 0, "n": 200, "codes": [1, 2, 3], "noise": 0.3}  # Likert answers coded 1..3
    q1, q2 = load_answers(cfg)
    print("cramers_v:", cramers_v(q1, q2).item())
