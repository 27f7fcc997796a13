import torch
import torch.nn as nn


class DeformSampler(nn.Module):
    """Samples a feature map at N offset positions per output pixel (deformable conv front end)."""

    def __init__(self, channels, kernel_size=3):
        super().__init__()
        self.N = kernel_size * kernel_size
        self.offset_conv = nn.Conv2d(channels, 2 * self.N, 3, padding=1)
        k = torch.arange(kernel_size) - (kernel_size - 1) // 2
        gy, gx = torch.meshgrid(k, k, indexing="ij")
        self.register_buffer("p_n", torch.cat([gy.flatten(), gx.flatten()]).float())  # (2N,)

    def forward(self, x):
        b, c, h, w = x.shape                                   # x: (B, C, H, W)
        offset = self.offset_conv(x)                           # (B, 2N, H, W)
        py = torch.arange(h).view(1, 1, h, 1).float()
        px = torch.arange(w).view(1, 1, 1, w).float()
        p_y = py + self.p_n[: self.N].view(1, -1, 1, 1) + offset[:, : self.N]   # (B, N, H, W)
        p_x = px + self.p_n[self.N :].view(1, -1, 1, 1) + offset[:, self.N :]   # (B, N, H, W)
        # nearest integer sampling position, kept inside the map
        q_y = p_y.round().long().clamp(0, h - 1)
        q_x = p_x.round().long().clamp(0, w - 1)
        index = (q_y * w + q_x).permute(0, 2, 3, 1).reshape(b, 1, -1)         # (B, 1, H*W*N)
        index = index.expand(-1, c, -1)                                          # (B, C, H*W*N)
        x_flat = x.reshape(b, c, h * w)                                          # (B, C, H*W)
        x_offset = x_flat.gather(dim=-1, index=index)                            # (B, C, H*W*N)
        return x_offset.view(b, c, h, w, self.N)


if __name__ == "__main__":
    torch.manual_seed(0)
    sampler = DeformSampler(channels=4)
    nn.init.normal_(sampler.offset_conv.weight, std=0.5)
    feats = torch.randn(2, 4, 6, 6)
    with torch.no_grad():
        out = sampler(feats)
        offset = sampler.offset_conv(feats)
    b, c, h, w = feats.shape
    N = sampler.N
    for bi in range(b):
        for i in range(h):
            for j in range(w):
                for n in range(N):
                    y = i + sampler.p_n[n].item() + offset[bi, n, i, j].item()
                    x = j + sampler.p_n[N + n].item() + offset[bi, N + n, i, j].item()
                    yy = min(max(int(torch.tensor(y).round()), 0), h - 1)
                    xx = min(max(int(torch.tensor(x).round()), 0), w - 1)
                    assert torch.allclose(out[bi, :, i, j, n], feats[bi, :, yy, xx])
    print("ok")
