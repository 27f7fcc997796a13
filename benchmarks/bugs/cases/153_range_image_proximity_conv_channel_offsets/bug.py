import torch
import torch.nn as nn
import torch.nn.functional as F


class ProximityConv(nn.Module):
    """Convolution over the knn_nr closest (in range) pixels of every search window of a LiDAR range image."""

    def __init__(self, in_channels, out_channels, search=5, knn_nr=9):
        super().__init__()
        self.search = search
        self.knn_nr = knn_nr
        self.proj = nn.Conv1d(in_channels * knn_nr, out_channels, kernel_size=1)

    def forward(self, inputs):
        b, c, h, w = inputs.shape
        search_dim = self.search ** 2
        pad = (self.search - 1) // 2
        proj_range = inputs[:, 0:1]
        unfold_range = F.unfold(proj_range, kernel_size=self.search, padding=pad)
        center = unfold_range[:, search_dim // 2: search_dim // 2 + 1]
        difference = (unfold_range - center).abs()
        _, knn_idx = difference.topk(self.knn_nr, dim=1, largest=False)

        unfold_inputs = F.unfold(inputs, kernel_size=self.search, padding=pad)
        new_knn_idx = torch.cat(
            (knn_idx,
             knn_idx + 1 * search_dim,
             knn_idx + 2 * search_dim,
             knn_idx + 3 * search_dim,
             knn_idx + 4 * search_dim),
            dim=1,
        )
        neighbours = torch.gather(input=unfold_inputs, dim=1, index=new_knn_idx)
        return self.proj(neighbours).view(b, -1, h, w)


if __name__ == "__main__":
    torch.manual_seed(0)
    # range, x, y, z channels of a 16 x 32 range image (no remission channel for this sensor)
    scan = torch.randn(2, 4, 16, 32)
    scan[:, 0] = scan[:, 0].abs() * 10
    layer = ProximityConv(in_channels=4, out_channels=8)
    out = layer(scan)
    print(out.shape)
