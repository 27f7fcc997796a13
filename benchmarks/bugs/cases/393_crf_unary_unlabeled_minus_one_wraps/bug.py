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
    unary[flat - 1, cols] = p_energy
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
    labels, unary = run(CRF_CONFIG)
    unsure = (labels.flatten() == 0).nonzero().flatten()
    print("energies of an unsure pixel:", unary[:, unsure[0]].tolist())
    print("MAP label of unsure pixels:", (unary[:, unsure].argmin(0) + 1).tolist())
