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
    feature_fields = data_x.max(dim=0).values.numpy()
    model = FactorizationMachine(feature_fields, embed_dim=8)
    with torch.no_grad():
        pred = model(data_x)
    rows = {}
    for f in range(data_x.shape[1]):
        for v in range(int(data_x[:, f].max()) + 1):
            rows.setdefault(int(model.offsets[f]) + v, []).append((f, v))
    shared = {r: fv for r, fv in rows.items() if len(fv) > 1}
    print("embedding rows shared by different (field, value) pairs:", shared)
    print("mean prediction:", pred.mean().item())
