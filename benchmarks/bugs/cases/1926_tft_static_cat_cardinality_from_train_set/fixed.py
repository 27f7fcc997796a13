from typing import Dict, List

import torch
import torch.nn as nn


def calculate_static_cardinalities(dataset: List[Dict]) -> List[int]:
    """Number of distinct values of every static categorical feature in ``dataset``.

    Each entry of ``dataset`` holds ``feat_static_cat``, a list with one category id per feature.
    """
    num_feats = len(dataset[0]["feat_static_cat"])
    seen = [set() for _ in range(num_feats)]
    for entry in dataset:
        for k, value in enumerate(entry["feat_static_cat"]):
            seen[k].add(value)
    # one extra id per feature for categories that only appear at prediction time
    return [len(cats) + 1 for cats in seen]


class FeatureEmbedder(nn.Module):
    """Embeds each categorical feature with its own table.

    features: LongTensor of shape (batch, num_features) -> list of (batch, dim) tensors
    """

    def __init__(self, cardinalities: List[int], embedding_dims: List[int]):
        super().__init__()
        self._cardinalities = list(cardinalities)
        self._embedders = nn.ModuleList([nn.Embedding(c, d) for c, d in zip(cardinalities, embedding_dims)])

    def forward(self, features: torch.Tensor) -> List[torch.Tensor]:
        # ids beyond the training categories share the reserved "unseen" row
        return [embed(features[:, k].clamp(max=self._cardinalities[k] - 1))
                for k, embed in enumerate(self._embedders)]


class TemporalFusionTransformerModel(nn.Module):
    """Static-covariate encoder and output head of a small TFT forecaster.

    Args:
        context_length: length of the conditioning range.
        prediction_length: forecast horizon.
        d_var: embedding size of every static variable.
        static_cardinalities: cardinality of every static categorical feature.
    Inputs:
        feat_static_cat: (batch, num_static_cat) category ids.
        past_target: (batch, context_length) observed values.
    Returns:
        (batch, prediction_length) point forecast.
    """

    def __init__(self, context_length, prediction_length, d_var, static_cardinalities):
        super().__init__()
        self.static_feat_proj = FeatureEmbedder(static_cardinalities, [d_var] * len(static_cardinalities))
        self.static_selector = nn.Linear(d_var * len(static_cardinalities), len(static_cardinalities))
        self.past_proj = nn.Linear(context_length, d_var)
        self.head = nn.Linear(2 * d_var, prediction_length)

    def forward(self, feat_static_cat, past_target):
        static_vars = self.static_feat_proj(feat_static_cat)
        stacked = torch.stack(static_vars, dim=1)
        weights = torch.softmax(self.static_selector(stacked.flatten(1)), dim=-1)
        static_context = (weights.unsqueeze(-1) * stacked).sum(dim=1)
        scale = past_target.abs().mean(dim=1, keepdim=True) + 1e-6
        encoded = self.past_proj(past_target / scale)
        return self.head(torch.cat([encoded, static_context], dim=-1)) * scale


if __name__ == "__main__":
    torch.manual_seed(0)
    context_length, prediction_length = 24, 6
    # static features: [colour, store]
    train = [{"feat_static_cat": [c, s], "target": torch.randn(60).cumsum(0).tolist()}
             for c, s in [(0, 0), (1, 0), (0, 1), (1, 2), (0, 2)]]
    cardinalities = calculate_static_cardinalities(train)
    model = TemporalFusionTransformerModel(context_length, prediction_length, d_var=8,
                                           static_cardinalities=cardinalities).eval()
    # a series of a colour never seen in training (cold start)
    test = train[:2] + [{"feat_static_cat": [2, 1], "target": torch.randn(60).cumsum(0).tolist()}]
    feat_static_cat = torch.tensor([entry["feat_static_cat"] for entry in test])
    past_target = torch.tensor([entry["target"][-context_length:] for entry in test])
    with torch.no_grad():
        forecast = model(feat_static_cat, past_target)
    assert cardinalities == [3, 4]
    assert forecast.shape == (3, prediction_length)
    emb = model.static_feat_proj._embedders
    for b, entry in enumerate(test):
        rows = [min(cat, cardinalities[k] - 1) for k, cat in enumerate(entry["feat_static_cat"])]
        vectors = [emb[k].weight[r] for k, r in enumerate(rows)]
        got = model.static_feat_proj(feat_static_cat[b:b + 1])
        for k in range(2):
            assert torch.equal(got[k][0], vectors[k])
    assert torch.isfinite(forecast).all()
    print("ok")
