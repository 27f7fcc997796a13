import math

import torch
import torch.nn as nn


class FixedEmbedding(nn.Module):
    def __init__(self, c_in, d_model):
        super().__init__()
        w = torch.zeros(c_in, d_model)
        position = torch.arange(0, c_in).float().unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * -(math.log(10000.0) / d_model))
        w[:, 0::2] = torch.sin(position * div_term)
        w[:, 1::2] = torch.cos(position * div_term)
        self.emb = nn.Embedding(c_in, d_model)
        self.emb.weight = nn.Parameter(w, requires_grad=False)

    def forward(self, x):
        return self.emb(x).detach()


class TemporalEmbedding(nn.Module):
    def __init__(self, d_model, embed_type="fixed", freq="h"):
        super().__init__()
        minute_size = 4
        hour_size = 24
        weekday_size = 7
        day_size = 32
        month_size = 13

        Embed = FixedEmbedding if embed_type == "fixed" else nn.Embedding
        if freq == "t":
            self.minute_embed = Embed(minute_size, d_model)
        self.hour_embed = Embed(hour_size, d_model)
        self.weekday_embed = Embed(weekday_size, d_model)
        self.day_embed = Embed(day_size, d_model)
        self.month_embed = Embed(month_size, d_model)

    def forward(self, x):
        x = x.long()
        minute_x = self.minute_embed(x[:, :, 4]) if hasattr(self, "minute_embed") else 0.0
        hour_x = self.hour_embed(x[:, :, 3])
        weekday_x = self.weekday_embed(x[:, :, 2])
        day_x = self.day_embed(x[:, :, 1])
        month_x = self.month_embed(x[:, :, 0])
        return hour_x + weekday_x + day_x + month_x + minute_x


class DataEmbedding(nn.Module):
    def __init__(self, c_in, d_model, embed_type="fixed", freq="h", dropout=0.0):
        super().__init__()
        self.value_embedding = nn.Conv1d(c_in, d_model, kernel_size=3, padding=1, padding_mode="circular")
        self.temporal_embedding = TemporalEmbedding(d_model, embed_type=embed_type, freq=freq)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, x_mark):
        value = self.value_embedding(x.permute(0, 2, 1)).transpose(1, 2)
        return self.dropout(value + self.temporal_embedding(x_mark))


def time_features_daily(month, day, weekday):
    return torch.stack([month, day, weekday], dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    x_enc = torch.randn(4, 96, 7)
    x_mark = time_features_daily(
        torch.randint(1, 13, (4, 96)), torch.randint(1, 32, (4, 96)), torch.randint(0, 7, (4, 96))
    )
    embedding = DataEmbedding(c_in=7, d_model=16, embed_type="fixed", freq="d")
    out = embedding(x_enc, x_mark)
    print("encoder input:", tuple(out.shape))
