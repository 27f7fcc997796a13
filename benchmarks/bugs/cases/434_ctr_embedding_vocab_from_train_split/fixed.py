import torch
import torch.nn as nn


class CategoryEncoder:
    """Maps raw category values to consecutive ids; values never seen while fitting
    get the next free id."""

    def fit(self, values):
        self.classes_ = {v: i for i, v in enumerate(sorted(set(values)))}
        return self

    def transform(self, values):
        unk = len(self.classes_)
        return torch.tensor([self.classes_.get(v, unk) for v in values])


class DeepFM(nn.Module):
    def __init__(self, vocab_sizes, embed_dim=8, hidden=32):
        super().__init__()
        self.first_order = nn.ModuleList(nn.Embedding(v, 1) for v in vocab_sizes)
        self.second_order = nn.ModuleList(nn.Embedding(v, embed_dim) for v in vocab_sizes)
        self.dnn = nn.Sequential(nn.Linear(len(vocab_sizes) * embed_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        first = sum(emb(x[:, i]) for i, emb in enumerate(self.first_order))
        v = torch.stack([emb(x[:, i]) for i, emb in enumerate(self.second_order)], dim=1)
        fm = 0.5 * (v.sum(1).pow(2) - v.pow(2).sum(1)).sum(-1, keepdim=True)
        deep = self.dnn(v.flatten(1))
        return torch.sigmoid(first + fm + deep).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    train = {"city": ["paris", "rome", "oslo", "rome", "lima"], "device": ["ios", "android", "ios", "web", "web"]}
    churn = {"city": ["rome", "kyiv", "oslo"], "device": ["ios", "web", "android"]}

    encoders = {f: CategoryEncoder().fit(vals) for f, vals in train.items()}
    vocab_sizes = [len(encoders[f].classes_) + 1 for f in train]  # + 1: id reserved for unseen values
    model = DeepFM(vocab_sizes)

    x_train = torch.stack([encoders[f].transform(train[f]) for f in train], dim=1)
    x_new = torch.stack([encoders[f].transform(churn[f]) for f in churn], dim=1)
    assert all(int(x_new[:, i].max()) < v for i, v in enumerate(vocab_sizes))
    for x in (x_train, x_new):
        p = model(x)
        for b in range(x.size(0)):
            first = sum(model.first_order[i].weight[int(x[b, i])] for i in range(x.size(1)))
            vs = [model.second_order[i].weight[int(x[b, i])] for i in range(x.size(1))]
            fm = 0.0
            for i in range(len(vs)):
                for j in range(i + 1, len(vs)):
                    fm = fm + (vs[i] * vs[j]).sum()
            deep = model.dnn(torch.cat(vs))
            ref = torch.sigmoid(first + fm + deep).squeeze()
            assert torch.allclose(p[b], ref, atol=1e-5)
    print("ok")
