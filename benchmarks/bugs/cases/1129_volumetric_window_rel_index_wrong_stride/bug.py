import torch
import torch.nn as nn


class WindowAttention3D(nn.Module):
    def __init__(self, dim, window_size, num_heads):
        super().__init__()
        self.window_size = window_size  # (Ws, Wh, Ww)
        self.num_heads = num_heads
        ws, wh, ww = window_size
        # (2*Ws-1) * (2*Wh-1) * (2*Ww-1), nH
        self.relative_position_bias_table = nn.Parameter(
            torch.randn((2 * ws - 1) * (2 * wh - 1) * (2 * ww - 1), num_heads) * 0.02
        )
        coords = torch.stack(
            torch.meshgrid(torch.arange(ws), torch.arange(wh), torch.arange(ww), indexing="ij")
        )  # 3, Ws, Wh, Ww
        coords_flatten = torch.flatten(coords, 1)  # 3, Ws*Wh*Ww
        relative_coords = coords_flatten[:, :, None] - coords_flatten[:, None, :]  # 3, N, N
        relative_coords = relative_coords.permute(1, 2, 0).contiguous()  # N, N, 3
        relative_coords[:, :, 0] += ws - 1  # shift to start from 0
        relative_coords[:, :, 1] += wh - 1
        relative_coords[:, :, 2] += ww - 1
        relative_coords[:, :, 0] *= 3 * wh - 1
        relative_coords[:, :, 1] *= 2 * ww - 1
        self.register_buffer("relative_position_index", relative_coords.sum(-1))  # N, N
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def relative_bias(self):
        n = self.relative_position_index.shape[0]
        bias = self.relative_position_bias_table[self.relative_position_index.view(-1)]  # N*N, nH
        return bias.view(n, n, -1).permute(2, 0, 1)  # nH, N, N

    def forward(self, x):
        # x: B_, N, C (tokens of one 3-D window)
        b, n, c = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.num_heads, c // self.num_heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * (c // self.num_heads) ** -0.5
        attn = (attn + self.relative_bias().unsqueeze(0)).softmax(-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(b, n, c))


if __name__ == "__main__":
    torch.manual_seed(0)
    block = WindowAttention3D(dim=16, window_size=(3, 4, 4), num_heads=2)
    x = torch.randn(2, 3 * 4 * 4, 16)
    print("out:", block(x).shape)
    used = block.relative_position_index.unique().numel()
    print("distinct bias rows used:", used, "of", block.relative_position_bias_table.shape[0])
