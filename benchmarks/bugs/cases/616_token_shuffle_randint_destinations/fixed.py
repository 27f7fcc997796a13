import torch

AUG = {"batch": 4, "seq_len": 12, "vocab": 100, "seed": 3}


def sample_destinations(batch, seq_len, generator):
    return torch.rand(batch, seq_len, generator=generator).argsort(dim=1)


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
    out, dest = shuffle_tokens(ids, g)
    for b in range(ids.shape[0]):
        ref = [0] * ids.shape[1]
        for i in range(ids.shape[1]):
            ref[int(dest[b, i])] = int(ids[b, i])
        assert out[b].tolist() == ref
        assert sorted(ref) == sorted(ids[b].tolist())
    print("ok")
