import torch

AUG = {"batch": 4, "seq_len": 12, "vocab": 100, "seed": 3}


def sample_destinations(batch, seq_len, generator):
    return torch.randint(0, seq_len, (batch, seq_len), generator=generator)


def shuffle_tokens(token_ids, generator):
    batch, seq_len = token_ids.shape
    dest = sample_destinations(batch, seq_len, generator)
    shuffled = torch.zeros_like(token_ids)
    shuffled.scatter_(1, dest, token_ids)
    return shuffled, dest


def make_batch(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    ids = torch.randint(1, cfg["vocab"], (cfg["batch"], cfg["seq_len"]), generator=g)
    return ids, g


if __name__ == "__main__":
    ids, g = make_batch(AUG)
    out, _ = shuffle_tokens(ids, g)
    kept = sum(sorted(out[b].tolist()) == sorted(ids[b].tolist()) for b in range(ids.shape[0]))
    print("rows that are true permutations:", kept, "of", ids.shape[0])
    print("padding slots introduced:", int((out == 0).sum()))
