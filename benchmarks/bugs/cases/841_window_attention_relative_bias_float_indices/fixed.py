import torch
import torch.nn as nn


def window_grid(window_size: int) -> torch.Tensor:
    # (ws*ws, 2) pixel coordinates inside one window, also used for the position MLP
    ys, xs = torch.meshgrid(
        torch.linspace(0, window_size - 1, window_size),
        torch.linspace(0, window_size - 1, window_size),
        indexing="ij",
    )
    return torch.stack([ys.flatten(), xs.flatten()], dim=-1)


def relative_distances(window_size: int) -> torch.Tensor:
    coords = window_grid(window_size)              # (N, 2)
    return coords[None, :, :] - coords[:, None, :]  # (N, N, 2)


class WindowAttention(nn.Module):
    def __init__(self, dim: int, heads: int, window_size: int):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.register_buffer("relative_indices", (relative_distances(window_size) + window_size - 1).long())
        self.pos_embedding = nn.Parameter(torch.randn(2 * window_size - 1, 2 * window_size - 1))

    def relative_bias(self) -> torch.Tensor:
        return self.pos_embedding[self.relative_indices[:, :, 0], self.relative_indices[:, :, 1]]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (B, N, C) tokens of one window, N = ws * ws
        b, n, c = x.shape
        q, k, v = self.to_qkv(x).reshape(b, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        dots = (q @ k.transpose(-2, -1)) * self.scale   # (B, H, N, N)
        dots = dots + self.relative_bias()
        attn = dots.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, n, c)
        return self.to_out(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    block = WindowAttention(dim=32, heads=4, window_size=4)
    tokens = torch.randn(2, 16, 32)
    out = block(tokens)
    assert out.shape == (2, 16, 32)
    ws = 4
    cells = [(y, x) for y in range(ws) for x in range(ws)]
    bias = block.relative_bias()
    for i, (yi, xi) in enumerate(cells):
        for j, (yj, xj) in enumerate(cells):
            expected = block.pos_embedding[yj - yi + ws - 1, xj - xi + ws - 1]
            assert torch.equal(bias[i, j], expected)
    print("ok")
