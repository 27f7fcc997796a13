import torch
import torch.nn as nn


def relative_position_index(window_size):
    """Pairwise index into a ((2*Wh-1) * (2*Ww-1))-row bias table.

    Args:
        window_size: (Wh, Ww).

    Returns:
        LongTensor of shape (Wh*Ww, Wh*Ww).
    """
    wh, ww = window_size
    coords = torch.stack(torch.meshgrid(torch.arange(wh), torch.arange(ww), indexing="ij"))  # 2, Wh, Ww
    coords_flatten = torch.flatten(coords, 1)  # 2, Wh*Ww
    relative_coords = coords_flatten[:, :, None] - coords_flatten[:, None, :]  # 2, Wh*Ww, Wh*Ww
    relative_coords = relative_coords.permute(1, 2, 0).contiguous()  # Wh*Ww, Wh*Ww, 2
    relative_coords[:, :, 0] += wh - 1  # shift to start from 0
    relative_coords[:, :, 1] += ww - 1
    relative_coords[:, :, 0] *= 2 * ww - 1
    return relative_coords.sum(-1)  # Wh*Ww, Wh*Ww


class WindowAttention(nn.Module):
    def __init__(self, dim, window_size, num_heads):
        super().__init__()
        self.window_size = window_size
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.relative_position_bias_table = nn.Parameter(
            torch.randn((2 * window_size[0] - 1) * (2 * window_size[1] - 1), num_heads) * 0.02
        )
        self.register_buffer("relative_position_index", relative_position_index(window_size))
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def relative_position_bias(self):
        n = self.window_size[0] * self.window_size[1]
        bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(n, n, -1)  # N, N, nH
        return bias.permute(2, 0, 1).contiguous()  # nH, N, N

    def forward(self, x):
        b_, n, c = x.shape  # num_windows*B, N, C
        qkv = self.qkv(x).reshape(b_, n, 3, self.num_heads, c // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]  # each b_, nH, N, C/nH
        attn = (q * self.scale) @ k.transpose(-2, -1)  # b_, nH, N, N
        attn = (attn + self.relative_position_bias().unsqueeze(0)).softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(b_, n, c))


if __name__ == "__main__":
    torch.manual_seed(0)
    wh, ww, heads = 3, 4, 2
    layer = WindowAttention(dim=16, window_size=(wh, ww), num_heads=heads)
    bias = layer.relative_position_bias()
    table = layer.relative_position_bias_table
    for i in range(wh * ww):
        for j in range(wh * ww):
            dy = i // ww - j // ww + wh - 1
            dx = i % ww - j % ww + ww - 1
            for h in range(heads):
                assert bias[h, i, j].item() == table[dy * (2 * ww - 1) + dx, h].item()
    windows = torch.randn(5, wh * ww, 16)
    out = layer(windows)
    assert out.shape == windows.shape
    assert int(layer.relative_position_index.max()) == table.shape[0] - 1
    print("ok")
