import torch
import torch.nn as nn


class Aggregation(nn.Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = dim


class MeanAggregation(Aggregation):
    def forward(self, H, batch):
        index_torch = batch.unsqueeze(1).repeat(1, H.shape[1])
        dim_size = int(batch.max()) + 1
        return torch.zeros(dim_size, H.shape[1], dtype=H.dtype, device=H.device).scatter_reduce_(
            self.dim, index_torch, H, reduce="mean", include_self=False
        )


class AttentiveAggregation(Aggregation):
    def __init__(self, dim=0, *, output_size):
        super().__init__(dim)
        self.W = nn.Linear(output_size, 1)

    def forward(self, H, batch):
        dim_size = int(batch.max()) + 1
        attention_logits = self.W(H).exp()
        Z = torch.zeros(dim_size, 1, dtype=H.dtype, device=H.device).scatter_reduce_(
            self.dim, batch.unsqueeze(1), attention_logits, reduce="sum", include_self=False
        )
        alphas = attention_logits / Z[batch]
        index_torch = batch.unsqueeze(1).repeat(1, H.shape[1])
        return torch.zeros(dim_size, H.shape[1], dtype=H.dtype, device=H.device).scatter_reduce_(
            self.dim, index_torch, alphas * H, reduce="sum", include_self=False
        )


AGGREGATIONS = {"mean": MeanAggregation, "attentive": AttentiveAggregation}


def build_model(cfg):
    agg_cls = AGGREGATIONS[cfg["aggregation"]]
    kwargs = {"output_size": cfg["hidden"]} if cfg["aggregation"] == "attentive" else {}
    agg = agg_cls(**kwargs)
    encoder = nn.Sequential(nn.Linear(cfg["atom_features"], cfg["hidden"]), nn.ReLU())
    head = nn.Linear(cfg["hidden"], cfg["tasks"])
    return encoder, agg, head


def predict(model, batch):
    encoder, agg, head = model
    atom_h = encoder(batch["atom_features"])
    fingerprints = agg(atom_h, batch["atom_to_mol"])
    return head(fingerprints)


def make_batch(atoms_per_mol, n_features, seed=0):
    g = torch.Generator().manual_seed(seed)
    owner = [m for m, n in enumerate(atoms_per_mol) for _ in range(n)]
    return {
        "atom_features": torch.randn(len(owner), n_features, generator=g),
        "atom_to_mol": torch.tensor(owner),
    }


def reference_fingerprints(agg, H, owner):
    import math

    logits = agg.W(H).squeeze(-1).tolist()
    rows = H.tolist()
    n_mols = max(owner) + 1
    out = []
    for m in range(n_mols):
        atoms = [i for i, o in enumerate(owner) if o == m]
        z = sum(math.exp(logits[i]) for i in atoms)
        fp = [0.0] * len(rows[0])
        for i in atoms:
            a = math.exp(logits[i]) / z
            for c in range(len(fp)):
                fp[c] += a * rows[i][c]
        out.append(fp)
    return torch.tensor(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"aggregation": "attentive", "atom_features": 10, "hidden": 16, "tasks": 1}
    model = build_model(cfg)
    batch = make_batch([4, 6, 3], cfg["atom_features"])
    with torch.no_grad():
        preds = predict(model, batch)
        encoder, agg, head = model
        atom_h = encoder(batch["atom_features"])
        ref = head(reference_fingerprints(agg, atom_h, batch["atom_to_mol"].tolist()))
    assert preds.shape == (3, 1)
    assert torch.allclose(preds, ref, atol=1e-5)
    print("ok")
