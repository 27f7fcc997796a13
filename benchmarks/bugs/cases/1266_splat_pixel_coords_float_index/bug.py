import torch


def project_means(means3d, K, w2c):
    # means3d: [N, 3] world points; K: [3, 3]; w2c: [4, 4]
    homo = torch.cat([means3d, torch.ones_like(means3d[:, :1])], dim=1)  # [N, 4]
    cam = (homo @ w2c.T)[:, :3]                                          # [N, 3]
    uvw = cam @ K.T                                                      # [N, 3]
    return uvw[:, :2] / uvw[:, 2:3]                                      # [N, 2] (x, y) in pixels


class DensifyStats:
    def __init__(self, num_points):
        self.grad_accum = torch.zeros(num_points)  # [N]
        self.visits = torch.zeros(num_points)      # [N]

    def update(self, pixel_grad, means2d, visible):
        # pixel_grad: [H, W] per-pixel view-space gradient norm
        # means2d:    [N, 2] projected centres, float pixels
        # visible:    [N] bool
        H, W = pixel_grad.shape
        px = means2d.round()
        px[:, 0].clamp_(0, W - 1)
        px[:, 1].clamp_(0, H - 1)
        g = pixel_grad[px[:, 1], px[:, 0]]  # [N]
        self.grad_accum += torch.where(visible, g, torch.zeros_like(g))
        self.visits += visible.float()

    def to_densify(self, thresh):
        return (self.grad_accum / self.visits.clamp_min(1)) > thresh


if __name__ == "__main__":
    torch.manual_seed(0)
    N, H, W = 10, 12, 16
    means3d = torch.randn(N, 3) * 0.5 + torch.tensor([0.0, 0.0, 4.0])
    K = torch.tensor([[20.0, 0.0, W / 2], [0.0, 20.0, H / 2], [0.0, 0.0, 1.0]])
    w2c = torch.eye(4)
    means2d = project_means(means3d, K, w2c)
    visible = (means2d[:, 0] >= 0) & (means2d[:, 0] < W) & (means2d[:, 1] >= 0) & (means2d[:, 1] < H)
    pixel_grad = torch.rand(H, W)
    stats = DensifyStats(N)
    stats.update(pixel_grad, means2d, visible)
    print(stats.to_densify(0.5))
