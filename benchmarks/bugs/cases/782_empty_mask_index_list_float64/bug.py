import numpy as np
import torch

CONFIG = {"mask_ratio": 0.3, "batch_sizes": [8, 8, 3], "feat_dim": 6, "seed": 0}


def pick_masked_samples(batch_size, ratio, rng):
    count = int(batch_size * ratio)
    chosen = sorted(rng.choice(batch_size, size=count, replace=False).tolist())
    return np.array(chosen)


def semantic_term(features, semantic_weight, mask_idxs):
    weight = torch.cat(semantic_weight)
    index = torch.from_numpy(mask_idxs)
    picked_weight = weight[index]
    picked_feats = features.index_select(0, index)
    return (picked_feats * picked_weight.unsqueeze(1)).sum()


def run_epoch(cfg):
    rng = np.random.default_rng(cfg["seed"])
    gen = torch.Generator().manual_seed(cfg["seed"])
    totals = []
    for bs in cfg["batch_sizes"]:
        features = torch.randn(bs, cfg["feat_dim"], generator=gen)
        semantic_weight = [torch.rand(1, generator=gen) for _ in range(bs)]
        mask_idxs = pick_masked_samples(bs, cfg["mask_ratio"], rng)
        totals.append(semantic_term(features, semantic_weight, mask_idxs).item())
    return totals


if __name__ == "__main__":
    print(run_epoch(CONFIG))
