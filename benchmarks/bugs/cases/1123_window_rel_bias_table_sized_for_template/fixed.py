import math

import torch
import torch.nn as nn


class WindowAttention(nn.Module):
    def __init__(self, dim, window, heads):
        super().__init__()
        self.heads = heads
        self.window = window
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.rel_bias_table = nn.Parameter(torch.randn((2 * window - 1) ** 2, heads) * 0.02)

    @staticmethod
    def relative_index(side, table_side):
        coords = torch.stack(torch.meshgrid(torch.arange(side), torch.arange(side), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (table_side - 1)
        return rel[..., 0] * (2 * table_side - 1) + rel[..., 1]

    def get_relative_position(self, n_tokens):
        side = int(math.isqrt(n_tokens))
        assert side <= self.window, "window larger than the bias table"
        rel_index = self.relative_index(side, self.window)
        bias = self.rel_bias_table[rel_index.view(-1)].view(n_tokens, n_tokens, self.heads)
        return bias.permute(2, 0, 1)

    def forward(self, x):
        b, n, c = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) / math.sqrt(c // self.heads)
        attn = (attn + self.get_relative_position(n)).softmax(-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(b, n, c))


def train_step(model, search_tokens):
    out = model(search_tokens)
    return out.pow(2).mean()


def reference_bias(table, side, table_side, heads):
    n = side * side
    out = torch.zeros(heads, n, n)
    for i in range(n):
        for j in range(n):
            dy = i // side - j // side + table_side - 1
            dx = i % side - j % side + table_side - 1
            out[:, i, j] = table[dy * (2 * table_side - 1) + dx]
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"template_side": 7, "search_side": 8, "dim": 32, "heads": 4}
    model = WindowAttention(cfg["dim"], max(cfg["template_side"], cfg["search_side"]), cfg["heads"])
    with torch.no_grad():
        for side in (cfg["template_side"], cfg["search_side"]):
            got = model.get_relative_position(side * side)
            assert torch.equal(got, reference_bias(model.rel_bias_table, side, model.window, cfg["heads"]))
    loss = train_step(model, torch.randn(2, cfg["search_side"] ** 2, cfg["dim"]))
    assert torch.isfinite(loss)
    print("ok")
