import math

import torch

CRF_CONFIG = {"n_labels": 3, "gt_prob": 0.7, "height": 4, "width": 5}


def unary_from_labels(labels, n_labels, gt_prob):
    """Negative log-probability unary term from an annotation map.

    Label 0 means 'unsure'; the classes are 1..n_labels.
    """
    u_energy = -math.log(1.0 / n_labels)
    n_energy = -math.log((1.0 - gt_prob) / (n_labels - 1))
    p_energy = -math.log(gt_prob)

    flat = labels.flatten()
    cols = torch.arange(flat.numel())
    unary = torch.full((n_labels, flat.numel()), n_energy)
    known = flat > 0
    unary[flat[known] - 1, cols[known]] = p_energy
    unary[:, ~known] = u_energy
    return unary


def annotate(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(1, cfg["n_labels"] + 1, (cfg["height"], cfg["width"]), generator=g)
    labels[0, :] = 0  # the annotator left the top row unsure
    return labels


def run(cfg):
    labels = annotate(cfg)
    unary = unary_from_labels(labels, cfg["n_labels"], cfg["gt_prob"])
    return labels, unary


if __name__ == "__main__":
    cfg = CRF_CONFIG
    labels, unary = run(cfg)
    u = -math.log(1.0 / cfg["n_labels"])
    n = -math.log((1.0 - cfg["gt_prob"]) / (cfg["n_labels"] - 1))
    p = -math.log(cfg["gt_prob"])
    flat = labels.flatten().tolist()
    for j, lab in enumerate(flat):
        for c in range(cfg["n_labels"]):
            expected = u if lab == 0 else (p if c == lab - 1 else n)
            assert abs(unary[c, j].item() - expected) < 1e-6
    print("ok")
