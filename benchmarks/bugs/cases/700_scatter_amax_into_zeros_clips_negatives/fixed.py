import torch
import torch.nn as nn


class PillarScatter(nn.Module):
    """Max-pool per-point features into a BEV grid."""

    def __init__(self, channels, grid_h, grid_w):
        super().__init__()
        self.C, self.H, self.W = channels, grid_h, grid_w

    def forward(self, point_feats, cell_ids):
        # point_feats: [B, C, P]  features of P points per sample
        # cell_ids:    [B, P]     flattened BEV cell (row * W + col) of every point
        B = point_feats.size(0)
        canvas = point_feats.new_zeros(B, self.C, self.H * self.W)       # [B, C, H*W]
        idx = cell_ids.unsqueeze(1).expand(-1, self.C, -1)               # [B, C, P]
        canvas.scatter_reduce_(2, idx, point_feats, reduce="amax", include_self=False)
        return canvas.view(B, self.C, self.H, self.W)                    # [B, C, H, W]


def points_to_cells(xy, grid_w, cell_size):
    # xy: [B, P, 2] metric coordinates -> [B, P] flattened cell ids
    col = (xy[..., 0] / cell_size).long()
    row = (xy[..., 1] / cell_size).long()
    return row * grid_w + col


if __name__ == "__main__":
    torch.manual_seed(0)
    scatter = PillarScatter(channels=4, grid_h=3, grid_w=3)
    xy = torch.rand(2, 10, 2) * 3.0                 # [B=2, P=10, 2]
    feats = torch.randn(2, 4, 10) - 1.0
    cells = points_to_cells(xy, grid_w=3, cell_size=1.0)
    bev = scatter(feats, cells)
    for b in range(2):
        for cell in range(9):
            pts = [p for p in range(10) if cells[b, p].item() == cell]
            for ch in range(4):
                expected = max(feats[b, ch, p].item() for p in pts) if pts else 0.0
                assert abs(bev[b, ch, cell // 3, cell % 3].item() - expected) < 1e-6
    print("ok")
