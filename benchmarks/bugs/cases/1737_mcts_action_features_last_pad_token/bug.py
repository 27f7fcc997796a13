import torch
import torch.nn as nn

CONFIG = {"seed": 0, "vocab": 40, "hidden": 16, "pad_id": 0, "n_children": 4, "max_new_tokens": 9}


def build_policy(cfg):
    torch.manual_seed(cfg["seed"])
    return nn.ModuleDict({
        "embed": nn.Embedding(cfg["vocab"], cfg["hidden"]),
        "rnn": nn.GRU(cfg["hidden"], cfg["hidden"], batch_first=True),
    })


def run_policy(policy, tokens):
    out, _ = policy["rnn"](policy["embed"](tokens))
    return out


def sample_children(cfg):
    gen = torch.Generator().manual_seed(cfg["seed"] + 1)
    lengths = torch.randint(3, cfg["max_new_tokens"] + 1, (cfg["n_children"],), generator=gen)
    seqs = torch.full((cfg["n_children"], cfg["max_new_tokens"]), cfg["pad_id"])
    for i, n in enumerate(lengths.tolist()):
        seqs[i, :n] = torch.randint(1, cfg["vocab"], (n,), generator=gen)
    return seqs, lengths


def action_features(policy, completions, pad_id):
    """Summary vector for each candidate action, used to pick the most novel child."""
    hiddens = run_policy(policy, completions)
    feats = hiddens[:, -1, :]
    return feats


def most_novel(feats, seen):
    dists = torch.cdist(feats, seen).min(dim=1).values
    return int(dists.argmax())


if __name__ == "__main__":
    policy = build_policy(CONFIG)
    children, lengths = sample_children(CONFIG)
    with torch.no_grad():
        feats = action_features(policy, children, CONFIG["pad_id"])
        ref = torch.stack([
            run_policy(policy, children[i:i + 1, :n])[0, -1] for i, n in enumerate(lengths.tolist())
        ])
        seen = torch.randn(3, CONFIG["hidden"], generator=torch.Generator().manual_seed(7))
    print("lengths:", lengths.tolist(), "padded to", CONFIG["max_new_tokens"])
    print("feature max |diff| vs last generated token:", (feats - ref).abs().max().item())
    print("novel child picked:", most_novel(feats, seen), "reference:", most_novel(ref, seen))
