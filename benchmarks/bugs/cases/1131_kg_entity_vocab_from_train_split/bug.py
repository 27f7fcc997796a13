import torch
import torch.nn as nn


def build_splits(seed=0):
    g = torch.Generator().manual_seed(seed)
    triples = torch.stack([
        torch.randint(0, 60, (400,), generator=g),
        torch.randint(0, 5, (400,), generator=g),
        torch.randint(0, 60, (400,), generator=g),
    ], dim=1)
    # the valid split holds the triples that touch the most recently added entities
    is_late = (triples[:, 0] >= 50) | (triples[:, 2] >= 50)
    return {"train": triples[~is_late], "valid": triples[is_late][:32]}


def index_stats(splits):
    train = splits["train"]
    return {
        "num_entities": int(torch.max(train[:, 0].max(), train[:, 2].max())) + 1,
        "num_relations": int(train[:, 1].max()) + 1,
    }


class DistMult(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ent = nn.Embedding(cfg["num_entities"], cfg["dim"])
        self.rel = nn.Embedding(cfg["num_relations"], cfg["dim"])

    def forward(self, triples):
        h = self.ent(triples[:, 0])
        r = self.rel(triples[:, 1])
        t = self.ent(triples[:, 2])
        return (h * r * t).sum(-1)


def evaluate(model, triples):
    with torch.no_grad():
        return model(triples).mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    splits = build_splits()
    cfg = dict(index_stats(splits), dim=16)
    model = DistMult(cfg)
    print("train score", evaluate(model, splits["train"]))
    print("valid score", evaluate(model, splits["valid"]))
