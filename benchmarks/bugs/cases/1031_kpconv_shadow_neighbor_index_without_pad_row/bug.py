import torch
import torch.nn as nn


def radius_neighbors(queries, supports, radius, max_neighbors):
    # queries:  [M, 3] query points
    # supports: [N, 3] support points
    # returns   [M, max_neighbors] indices into supports; missing slots are
    #           filled with the shadow index N (one past the last support point)
    n_support = supports.shape[0]
    dist = torch.cdist(queries, supports)                    # [M, N]
    dist = dist.masked_fill(dist > radius, float("inf"))
    d, idx = dist.topk(max_neighbors, dim=1, largest=False)  # [M, K]
    return idx.masked_fill(torch.isinf(d), n_support)


class KPConvLite(nn.Module):
    def __init__(self, in_dim, out_dim, num_kernel_points=4):
        super().__init__()
        self.kernel_points = nn.Parameter(torch.randn(num_kernel_points, 3) * 0.05)
        self.weights = nn.Parameter(torch.randn(num_kernel_points, in_dim, out_dim) * 0.1)
        self.extent = 0.1

    def forward(self, q_pts, s_pts, neighb_inds, x):
        # q_pts: [M, 3], s_pts: [N, 3], neighb_inds: [M, K], x: [N, C]
        s_pts = torch.cat((s_pts, torch.zeros_like(s_pts[:1, :]) + 1e6), 0)  # [N + 1, 3]
        neighbors = s_pts[neighb_inds, :] - q_pts.unsqueeze(1)                # [M, K, 3]
        diffs = neighbors.unsqueeze(2) - self.kernel_points                 # [M, K, P, 3]
        influence = torch.clamp(1 - diffs.norm(dim=3) / self.extent, min=0)  # [M, K, P]

        neighb_x = torch.index_select(x, 0, neighb_inds.reshape(-1))          # [M * K, C]
        neighb_x = neighb_x.view(neighb_inds.shape[0], neighb_inds.shape[1], -1)
        weighted = torch.einsum("mkp,mkc->mpc", influence, neighb_x)          # [M, P, C]
        return torch.einsum("mpc,pco->mo", weighted, self.weights)           # [M, O]


if __name__ == "__main__":
    torch.manual_seed(0)
    points = torch.rand(40, 3) * 0.4
    feats = torch.randn(40, 8)
    inds = radius_neighbors(points, points, radius=0.08, max_neighbors=6)
    print("neighbor index range:", int(inds.min()), int(inds.max()), "features:", tuple(feats.shape))
    layer = KPConvLite(8, 16)
    out = layer(points, points, inds, feats)
    print("out:", tuple(out.shape))
