import random

import torch
import torch.nn as nn

CONFIG = {
    "cat_names": ["store", "weekday", "promo_type"],
    "cont_names": ["price", "temperature"],
    "max_emb_dim": 8,
    "hidden": 32,
}


class Categorify:
    """Maps each categorical column to integer codes; code 0 is reserved for missing values."""

    def __init__(self, cat_names):
        self.cat_names = cat_names
        self.classes = {}

    def setup(self, rows):
        for name in self.cat_names:
            seen = sorted({r[name] for r in rows if r[name] is not None})
            self.classes[name] = ["#na#"] + seen
            self.n_unique = getattr(self, "n_unique", {})
            self.n_unique[name] = len(seen)

    def vocab_size(self, name):
        return len(self.classes[name])

    def encode(self, rows):
        codes = []
        for r in rows:
            codes.append([self.classes[n].index(r[n]) if r[n] is not None else 0 for n in self.cat_names])
        return torch.tensor(codes)


def emb_size_rule(n_cat, max_dim):
    return min(max_dim, round(1.6 * n_cat ** 0.56))


class TabularModel(nn.Module):
    def __init__(self, emb_szs, n_cont, hidden):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(ni, nf) for ni, nf in emb_szs])
        n_emb = sum(nf for _, nf in emb_szs)
        self.layers = nn.Sequential(nn.Linear(n_emb + n_cont, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def embed(self, x_cat):
        return torch.cat([e(x_cat[:, i]) for i, e in enumerate(self.embeds)], 1)

    def forward(self, x_cat, x_cont):
        return self.layers(torch.cat([self.embed(x_cat), x_cont], 1))


def make_rows(n, seed=0):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        rows.append({
            "store": rng.choice(["north", "south", "east", "west", None]),
            "weekday": rng.choice(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]),
            "promo_type": rng.choice(["none", "bogo", "discount"]),
            "price": rng.uniform(1, 20),
            "temperature": rng.uniform(-5, 30),
        })
    return rows


def build_model(proc, cfg):
    emb_szs = [(proc.vocab_size(n), emb_size_rule(proc.vocab_size(n), cfg["max_emb_dim"])) for n in cfg["cat_names"]]
    return TabularModel(emb_szs, len(cfg["cont_names"]), cfg["hidden"])


if __name__ == "__main__":
    torch.manual_seed(0)
    rows = make_rows(64)
    proc = Categorify(CONFIG["cat_names"])
    proc.setup(rows)
    x_cat = proc.encode(rows)
    x_cont = torch.tensor([[r[c] for c in CONFIG["cont_names"]] for r in rows])
    model = build_model(proc, CONFIG)
    preds = model(x_cat, x_cont)
    emb = model.embed(x_cat)
    for b in range(x_cat.shape[0]):
        parts = []
        for i, e in enumerate(model.embeds):
            parts.extend(e.weight[int(x_cat[b, i])].tolist())
        assert torch.allclose(emb[b], torch.tensor(parts))
    assert preds.shape == (64, 1)
    print("ok")
