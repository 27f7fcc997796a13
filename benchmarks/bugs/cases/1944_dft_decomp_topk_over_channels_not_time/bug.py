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
        xf = torch.fft.rfft(x)
        freq = abs(xf)
        freq[0] = 0
        top_k_freq, top_list = torch.topk(freq, self.top_k)
        xf[freq <= top_k_freq.min()] = 0
        x_season = torch.fft.irfft(xf)
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
    corr = torch.nn.functional.cosine_similarity(season.flatten(1), periodic.flatten(1), dim=1)
    print("cosine(season, true periodic part) per sample:", [round(v, 3) for v in corr.tolist()])
    print("season of sample 0 is all zero:", bool(torch.all(season[0].abs() < 1e-6)))
