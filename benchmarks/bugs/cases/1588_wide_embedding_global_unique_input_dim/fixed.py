import numpy as np
import torch
import torch.nn as nn


class WidePreprocessor:
    """Label-encodes every (column, value) pair of the wide columns into one shared id space (0 = padding)."""

    def __init__(self, wide_cols):
        self.wide_cols = wide_cols
        self.encoding_dict = {}

    def fit_transform(self, frame):
        for col in self.wide_cols:
            for value in np.unique(frame[col]):
                key = f"{col}_{value}"
                if key not in self.encoding_dict:
                    self.encoding_dict[key] = len(self.encoding_dict) + 1
        n_rows = len(frame[self.wide_cols[0]])
        return np.array([[self.encoding_dict[f"{col}_{frame[col][i]}"] for col in self.wide_cols]
                         for i in range(n_rows)])


class Wide(nn.Module):
    """Linear (wide) part implemented as a sum of 1-d embeddings."""

    def __init__(self, input_dim, pred_dim=1):
        super().__init__()
        self.wide_linear = nn.Embedding(input_dim + 1, pred_dim, padding_idx=0)
        self.bias = nn.Parameter(torch.zeros(pred_dim))
        nn.init.normal_(self.wide_linear.weight[1:], std=0.1)

    def forward(self, X):
        out = self.wide_linear(X.long()).sum(dim=1) + self.bias
        return out


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    frame = {
        "rate_a": rng.choice([0.5, 1.0, 1.5, 2.0], size=64),
        "rate_b": rng.choice([1.5, 2.5, 3.5], size=64),
        "ratio": rng.choice([0.25, 0.75, 1.0], size=64),
    }
    wide_cols = list(frame)
    prep = WidePreprocessor(wide_cols)
    X_wide = prep.fit_transform(frame)

    # one embedding row per (column, value) pair, not per distinct raw value
    wide = Wide(input_dim=len(prep.encoding_dict), pred_dim=1)
    torch.manual_seed(0)
    with torch.no_grad():
        preds = wide(torch.from_numpy(X_wide))
    ref = torch.stack([sum(wide.wide_linear.weight[int(i)] for i in row) + wide.bias for row in X_wide])
    assert preds.shape == (64, 1)
    assert torch.allclose(preds, ref.detach())
    print("ok")
