import numpy as np
import torch

CONFIG = {"mask_ratio": 0.3, "batch_sizes": [8, 8, 3], "feat_dim": 6, "seed": 0}


def pick_masked_samples(batch_size, ratio, rng):
    count = int(batch_size * ratio)
    chosen = sorted(rng.choice(batch_size, size=count, replace=False).tolist())
    return np.array(chosen, dtype=np.int64)


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


def reference_epoch(cfg):
    rng = np.random.default_rng(cfg["seed"])
    gen = torch.Generator().manual_seed(cfg["seed"])
    totals = []
    for bs in cfg["batch_sizes"]:
        features = torch.randn(bs, cfg["feat_dim"], generator=gen)
        semantic_weight = [torch.rand(1, generator=gen) for _ in range(bs)]
        chosen = sorted(rng.choice(bs, size=int(bs * cfg["mask_ratio"]), replace=False).tolist())
        total = 0.0
        for i in chosen:
            for d in range(cfg["feat_dim"]):
                total += features[i, d].item() * semantic_weight[i].item()
        totals.append(total)
    return totals


if __name__ == "__main__":
    got = run_epoch(CONFIG)
    ref = reference_epoch(CONFIG)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert abs(g - r) < 1e-4, (g, r)
    print("ok")
