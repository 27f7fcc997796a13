import math

import torch
import torch.nn as nn


class DFT_series_decomp(nn.Module):
    """
    Series decomposition block
    """

    def __init__(self, top_k=5):
        super(DFT_series_decomp, self).__init__()
        self.top_k = top_k

    def forward(self, x):
        # FFT along the time axis of each (sample, channel) series
        xf = torch.fft.rfft(x, dim=1)
        freq = abs(xf)
        freq[:, 0, :] = 0
        top_k_freq, top_list = torch.topk(freq, self.top_k, dim=1)
        keep = torch.zeros_like(freq, dtype=torch.bool).scatter_(1, top_list, True)
        xf = xf.masked_fill(~keep, 0)
        x_season = torch.fft.irfft(xf, n=x.shape[1], dim=1)
        x_trend = x - x_season
        return x_season, x_trend


class PastDecomposableMixing(nn.Module):
    def __init__(self, d_model, d_ff, top_k):
        super(PastDecomposableMixing, self).__init__()
        self.decompsition = DFT_series_decomp(top_k)
        self.out_cross_layer = nn.Sequential(
            nn.Linear(in_features=d_model, out_features=d_ff),
            nn.GELU(),
            nn.Linear(in_features=d_ff, out_features=d_model),
        )

    def forward(self, x_list):
        season_list, trend_list = [], []
        for x in x_list:
            season, trend = self.decompsition(x)
            season_list.append(season)
            trend_list.append(trend)
        out_list = []
        for ori, season, trend in zip(x_list, season_list, trend_list):
            out_list.append(ori + self.out_cross_layer(season + trend))
        return out_list, season_list, trend_list


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, seq_len, d_model = 4, 96, 16
    t = torch.arange(seq_len, dtype=torch.float32)
    amplitude = torch.randn(batch, 1, d_model)
    periodic = torch.sin(2 * math.pi * 4 * t / seq_len)[None, :, None] * amplitude
    slope = 0.02 * t[None, :, None] * torch.randn(batch, 1, d_model)
    x = periodic + slope  # hidden states after the embedding, one row per time step

    block = PastDecomposableMixing(d_model, 32, top_k=5)
    with torch.no_grad():
        _, seasons, trends = block([x])
    season = seasons[0]

    # reference: per-series DFT along time, keep the top_k non-DC bins by magnitude
    for b in range(batch):
        for c in range(d_model):
            series = x[b, :, c]
            spec = torch.fft.rfft(series)
            mags = spec.abs().tolist()
            mags[0] = 0.0
            order = sorted(range(len(mags)), key=lambda i: -mags[i])[:5]
            kept = torch.zeros_like(spec)
            for i in order:
                kept[i] = spec[i]
            expected = torch.fft.irfft(kept, n=seq_len)
            assert torch.allclose(season[b, :, c], expected, atol=1e-5)
            assert torch.allclose(trends[0][b, :, c], series - expected, atol=1e-5)
    assert not bool(torch.all(season[0].abs() < 1e-6))
    print("ok")
