from statistics import NormalDist

import torch


class NaiveQuantileForecaster(torch.nn.Module):
    """Stand-in for the TimesFM decoder.

    forward(context, horizon) takes context of shape (n_series, context_len) and
    returns (point, quantiles): point has shape (n_series, horizon) and quantiles
    has shape (n_series, horizon, 1 + n_quantiles), where channel 0 is the mean
    forecast and channels 1.. are the configured quantile levels in order.
    """

    def __init__(self, quantile_levels):
        super().__init__()
        self.z = torch.tensor([NormalDist().inv_cdf(q) for q in quantile_levels])

    def forward(self, context, horizon):
        level = context[:, -1:].expand(-1, horizon)
        scale = context.std(dim=1, keepdim=True) * torch.arange(1, horizon + 1).sqrt()
        quantiles = level.unsqueeze(-1) + scale.unsqueeze(-1) * self.z
        return level, torch.cat([level.unsqueeze(-1), quantiles], dim=-1)


class TimesFMAdapter:
    def __init__(self, model, quantiles, alias="TimesFM"):
        self.model = model
        self.quantiles = quantiles
        self.alias = alias

    def forecast(self, context, horizon):
        """Return a dict of forecasts, each of shape (n_series, horizon).

        The quantile output of the model has shape (n_series, horizon,
        1 + n_quantiles): channel 0 is the mean, channels 1.. the quantiles.
        """
        point, quantile_forecast = self.model(context, horizon)
        out = {self.alias: point}
        cols = torch.arange(1, len(self.quantiles) + 1)
        selected = quantile_forecast.index_select(-1, cols)
        for i, q in enumerate(self.quantiles):
            out[f"{self.alias}-q-{int(q * 100)}"] = selected[..., i]
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    quantiles = [0.1, 0.5, 0.9]
    adapter = TimesFMAdapter(NaiveQuantileForecaster(quantiles), quantiles)
    context = torch.cumsum(torch.randn(3, 24), dim=1)
    fc = adapter.forecast(context, horizon=4)
    for s_idx in range(3):
        series = context[s_idx].tolist()
        mean = sum(series) / len(series)
        std = (sum((v - mean) ** 2 for v in series) / (len(series) - 1)) ** 0.5
        for h in range(4):
            for q in quantiles:
                expected = series[-1] + std * (h + 1) ** 0.5 * NormalDist().inv_cdf(q)
                got = fc[f"TimesFM-q-{int(q * 100)}"][s_idx, h].item()
                assert abs(got - expected) < 1e-4, (s_idx, h, q, got, expected)
    print("ok")
