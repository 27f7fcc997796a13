import math

import torch

LOOKUP = {"h": 0, "r": 1, "t": 2}


def corrupt_batch(positive_batch, cfg, seed):
    generator = torch.Generator().manual_seed(seed)
    num_negs = positive_batch.shape[0]
    corruption_indices = [LOOKUP[side] for side in cfg["corruption_scheme"]]
    split_idx = int(math.ceil(num_negs / len(corruption_indices)))
    negative_batch = positive_batch.clone()
    for index, start in zip(corruption_indices, range(0, num_negs, split_idx)):
        stop = min(start + split_idx, num_negs)
        negative_entities = torch.randint(cfg["num_entities"] - 1, (stop - start,), generator=generator)
        negative_relations = torch.randint(cfg["num_relations"] - 1, (stop - start,), generator=generator)
        if index == 1:
            shift = (negative_relations >= positive_batch[start:stop, 1]).long()
            negative_batch[start:stop, 1] = negative_relations + shift
        else:
            shift = (negative_entities >= positive_batch[start:stop, index]).long()
            negative_batch[start:stop, index] = negative_relations + shift
    return negative_batch


def transe_scores(triples, model):
    h = model["entity"][triples[:, 0]]
    r = model["relation"][triples[:, 1]]
    t = model["entity"][triples[:, 2]]
    return -(h + r - t).norm(p=1, dim=-1)


def make_setup(cfg):
    model = {
        "entity": torch.randn(cfg["num_entities"], cfg["dim"]),
        "relation": torch.randn(cfg["num_relations"], cfg["dim"]),
    }
    heads = torch.randint(0, cfg["num_entities"], (cfg["batch"],))
    rels = torch.randint(0, cfg["num_relations"], (cfg["batch"],))
    tails = torch.randint(0, cfg["num_entities"], (cfg["batch"],))
    return model, torch.stack([heads, rels, tails], dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_entities": 500, "num_relations": 6, "dim": 16, "batch": 64, "corruption_scheme": ("h", "t")}
    model, positive_batch = make_setup(cfg)
    negative_batch = corrupt_batch(positive_batch, cfg, seed=7)
    scores = transe_scores(negative_batch, model)

    generator = torch.Generator().manual_seed(7)
    half = cfg["batch"] // 2
    ref = positive_batch.clone()
    for side, start in ((0, 0), (2, half)):
        ents = torch.randint(cfg["num_entities"] - 1, (half,), generator=generator)
        torch.randint(cfg["num_relations"] - 1, (half,), generator=generator)
        for k in range(half):
            e = ents[k].item()
            ref[start + k, side] = e + int(e >= positive_batch[start + k, side].item())
    ref_scores = transe_scores(ref, model)
    corrupted = torch.cat([negative_batch[:half, 0], negative_batch[half:, 2]])
    print("largest corrupted entity id:", corrupted.max().item(), "of", cfg["num_entities"] - 1)
    print("max |negative scores - reference|:", (scores - ref_scores).abs().max().item())
