import torch
import torch.nn as nn


class ColorHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 3), nn.Sigmoid())

    def forward(self, xy):
        return self.mlp(xy)


def rasterize_mean(points, colors, grid_size):
    cells = torch.bucketize(points.contiguous(), torch.linspace(0, 1, grid_size + 1)[1:-1])
    flat = cells[:, 0] * grid_size + cells[:, 1]
    index = flat.unsqueeze(1)
    summed = torch.zeros(grid_size * grid_size, colors.size(1)).scatter_add(0, index, colors)
    counts = torch.zeros(grid_size * grid_size).index_add_(0, flat, torch.ones(len(flat)))
    return summed / counts.clamp(min=1).unsqueeze(1), counts


def reference(points, colors, grid_size):
    out = torch.zeros(grid_size * grid_size, 3)
    cnt = torch.zeros(grid_size * grid_size)
    for p, c in zip(points.tolist(), colors.tolist()):
        i = min(int(p[0] * grid_size), grid_size - 1) * grid_size + min(int(p[1] * grid_size), grid_size - 1)
        out[i] += torch.tensor(c)
        cnt[i] += 1
    return out / cnt.clamp(min=1).unsqueeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    head = ColorHead()
    points = torch.rand(200, 2)
    target = torch.rand(16, 3)
    colors = head(points)
    image, counts = rasterize_mean(points, colors, grid_size=4)
    print("max |grid mean - loop|:", (image - reference(points, colors.detach(), 4)).abs().max().item())
    loss = ((image - target) ** 2)[counts > 0].mean()
    loss.backward()
    print("loss:", loss.item())
