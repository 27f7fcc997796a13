import numpy as np
import torch


def control_indices(obs, cell_types, control_label):
    indices = np.array([])
    for cell_type in cell_types:
        mask = (obs["cell_type"] == cell_type) & (obs["perturbation"] == control_label)
        indices = np.concatenate([indices, np.flatnonzero(mask)])
    return indices


def control_means(expr, obs, cfg):
    means = {}
    for cell_type in cfg["cell_types"]:
        idx = control_indices(obs, [cell_type], cfg["control_label"])
        rows = expr.index_select(0, torch.from_numpy(idx))
        means[cell_type] = rows.mean(dim=0)
    return means


def load_split(cfg, seed):
    rng = np.random.default_rng(seed)
    n = cfg["n_cells"]
    obs = {
        "cell_type": rng.choice(cfg["cell_types"], size=n),
        "perturbation": rng.choice([cfg["control_label"], "KO_A", "KO_B"], size=n),
    }
    expr = torch.from_numpy(rng.poisson(2.0, size=(n, cfg["n_genes"])).astype(np.float32))
    return expr, obs


if __name__ == "__main__":
    cfg = {"n_cells": 40, "n_genes": 12, "cell_types": ["k562", "rpe1", "jurkat"], "control_label": "non-targeting"}
    expr, obs = load_split(cfg, seed=0)
    for cell_type, mean in control_means(expr, obs, cfg).items():
        print(cell_type, mean[:4].tolist())
