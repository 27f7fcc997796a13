import numpy as np
import torch
from torch import nn


class FeaturesLinear(nn.Module):
    def __init__(self, feature_fields):
        super().__init__()
        self.fc = nn.Embedding(sum(feature_fields) + 1, 1)
        self.bias = nn.Parameter(torch.zeros(1))
        self.offsets = np.array((0, *np.cumsum(feature_fields)[:-1]), dtype=np.int64)

    def forward(self, x):
        x = x + x.new_tensor(self.offsets).unsqueeze(0)
        return self.fc(x).sum(dim=1) + self.bias


class FactorizationMachine(nn.Module):
    def __init__(self, feature_fields, embed_dim):
        super().__init__()
        self.linear = FeaturesLinear(feature_fields)
        self.embedding = nn.Embedding(sum(feature_fields) + 1, embed_dim)
        self.offsets = np.array((0, *np.cumsum(feature_fields)[:-1]), dtype=np.int64)

    def forward(self, x):
        emb = self.embedding(x + x.new_tensor(self.offsets).unsqueeze(0))
        square_of_sum = emb.sum(dim=1) ** 2
        sum_of_square = (emb ** 2).sum(dim=1)
        inter = 0.5 * (square_of_sum - sum_of_square).sum(dim=1, keepdim=True)
        return torch.sigmoid(self.linear(x) + inter)


def label_encode(raw):
    cols = [np.unique(raw[:, j], return_inverse=True)[1] for j in range(raw.shape[1])]
    return torch.from_numpy(np.stack(cols, axis=1).astype(np.int64))


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    raw = np.stack([rng.integers(0, 2, 256), rng.integers(0, 3, 256), rng.integers(0, 5, 256), rng.integers(0, 4, 256)], 1)
    data_x = label_encode(raw)
    feature_fields = data_x.max(dim=0).values.numpy() + 1
    model = FactorizationMachine(feature_fields, embed_dim=8)
    with torch.no_grad():
        pred = model(data_x)
    rows = {}
    for f in range(data_x.shape[1]):
        for v in range(int(data_x[:, f].max()) + 1):
            rows.setdefault(int(model.offsets[f]) + v, []).append((f, v))
    assert all(len(fv) == 1 for fv in rows.values())
    w, lin = model.embedding.weight, model.linear.fc.weight
    for i in range(data_x.shape[0]):
        idx = [sum(int(data_x[:, g].max()) + 1 for g in range(f)) + int(data_x[i, f]) for f in range(data_x.shape[1])]
        e = torch.stack([w[j] for j in idx])
        inter = 0.5 * ((e.sum(0) ** 2) - (e ** 2).sum(0)).sum()
        logit = sum(lin[j, 0] for j in idx) + model.linear.bias[0] + inter
        assert torch.allclose(pred[i, 0], torch.sigmoid(logit), atol=1e-5)
    print("ok")
