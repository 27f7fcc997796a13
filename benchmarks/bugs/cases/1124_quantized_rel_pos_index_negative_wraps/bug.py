import torch
import torch.nn as nn


class QuantizedRelativePE(nn.Module):
    """Per-axis learned bias looked up by quantized relative offsets (stratified-style)."""

    def __init__(self, window_size, quant_size, heads):
        super().__init__()
        self.window_size = window_size
        self.quant_size = quant_size
        self.num_bins = int(round(4 * window_size / quant_size))
        # [3, num_bins, heads]: one table per xyz axis
        self.table = nn.Parameter(torch.randn(3, self.num_bins, heads))

    def forward(self, xyz, index_i, index_j):
        # xyz: [N, 3], index_i / index_j: [M] query/key point ids of the M attention pairs
        relative_position = xyz[index_i] - xyz[index_j]  # [M, 3], in [-2w, 2w]
        relative_position_index = (
            (relative_position + 2 * self.window_size - 0.0001) // self.quant_size
        ).long()  # [M, 3]
        bias = (
            self.table[0][relative_position_index[:, 0]]
            + self.table[1][relative_position_index[:, 1]]
            + self.table[2][relative_position_index[:, 2]]
        )  # [M, heads]
        return bias


def neighbour_pairs(xyz, radius):
    # all (i, j) with every |dx| <= radius
    diff = (xyz[:, None, :] - xyz[None, :, :]).abs().amax(-1)
    return (diff <= radius + 1e-6).nonzero(as_tuple=True)


if __name__ == "__main__":
    torch.manual_seed(0)
    window, quant = 0.4, 0.1
    grid = torch.arange(0, 9, dtype=torch.float32) * quant  # voxel centres 0.0 .. 0.8
    xyz = torch.stack([grid, torch.zeros(9), torch.zeros(9)], dim=1)  # [9, 3]
    pe = QuantizedRelativePE(window, quant, heads=2)
    i, j = neighbour_pairs(xyz, 2 * window)
    bias = pe(xyz, i, j)
    far = ((xyz[i] - xyz[j])[:, 0] <= -2 * window + 1e-6).nonzero()[0, 0]
    print("pairs:", i.numel(), "bias of the (-2w) pair:", bias[far])
