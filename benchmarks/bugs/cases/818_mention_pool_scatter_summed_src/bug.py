import torch

CFG = {"batch": 3, "seq_len": 10, "hidden": 5, "mention_len": 3}


def make_batch(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    hidden = torch.randn(cfg["batch"], cfg["seq_len"], cfg["hidden"], generator=g)
    starts = torch.randint(0, cfg["seq_len"] - cfg["mention_len"] + 1, (cfg["batch"], 1), generator=g)
    positions = starts + torch.arange(cfg["mention_len"])
    return hidden, positions


def mention_index(positions, hidden):
    return positions.unsqueeze(-1).expand(-1, -1, hidden.shape[-1])


def pool_mentions(hidden, positions):
    idx = mention_index(positions, hidden)
    tokens = hidden.gather(1, idx)
    pooled = tokens.mean(1, keepdim=True)
    return hidden.scatter(1, idx, pooled)


def encode(cfg):
    hidden, positions = make_batch(cfg)
    return pool_mentions(hidden, positions), hidden, positions


if __name__ == "__main__":
    out, hidden, positions = encode(CFG)
    print(out.shape, positions.tolist())
