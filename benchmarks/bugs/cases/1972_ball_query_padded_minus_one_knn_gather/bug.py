import torch
from torch import nn


def sample_farthest_points(points, K):
    """
    Args:
        points: (N, P, D) point clouds
        K: number of samples per cloud
    Returns:
        selected_points: (N, K, D)
        selected_indices: (N, K)
    """
    N, P, D = points.shape
    idx = torch.zeros(N, K, dtype=torch.long)
    dist = torch.full((N, P), float("inf"))
    farthest = torch.zeros(N, dtype=torch.long)
    batch = torch.arange(N)
    for i in range(K):
        idx[:, i] = farthest
        d = ((points - points[batch, farthest][:, None]) ** 2).sum(-1)
        dist = torch.minimum(dist, d)
        farthest = dist.argmax(-1)
    return points[batch[:, None], idx], idx


def ball_query(p1, p2, K=500, radius=0.2):
    """
    Ball query: for each point in p1, the first K points of p2 within `radius`.

    Args:
        p1: (N, P1, D) query points
        p2: (N, P2, D) reference points
    Returns:
        dists: (N, P1, K) squared distances to the neighbors
        idx: (N, P1, K) indices of the neighbors in p2, padded with -1 when fewer
            than K points lie inside the ball
        nn: (N, P1, K, D) coordinates of the neighbors (zeros where idx == -1)
    """
    N, P1, _ = p1.shape
    P2 = p2.shape[1]
    d2 = ((p1[:, :, None] - p2[:, None]) ** 2).sum(-1)  # (N, P1, P2)
    inside = d2 <= radius * radius
    # stable order: in-ball points first, in their p2 order
    order = torch.argsort((~inside).to(torch.int64) * P2 + torch.arange(P2), dim=-1)[..., :K]
    found = inside.gather(-1, order)
    idx = torch.where(found, order, torch.full_like(order, -1))
    dists = torch.where(found, d2.gather(-1, order), torch.zeros_like(order, dtype=d2.dtype))
    batch = torch.arange(N)[:, None, None]
    nn_pts = p2[batch, order] * found[..., None]
    return dists, idx, nn_pts


def knn_gather(x, idx, lengths=None):
    """
    Index the feature tensor x with the neighbor indices returned by a knn search.

    Args:
        x: (N, M, U) U-dimensional features to be gathered
        idx: (N, L, K) indices returned by the neighbor search
        lengths: (N,) number of valid points of every cloud in x, or None
    Returns:
        x_out: (N, L, K, U) with x_out[n, l, k] = x[n, idx[n, l, k]]
    """
    N, M, U = x.shape
    _N, L, K = idx.shape
    if N != _N:
        raise ValueError("x and idx must have same batch dimension.")
    if lengths is None:
        lengths = torch.full((x.shape[0],), M, dtype=torch.int64, device=x.device)

    idx_expanded = idx[:, :, :, None].expand(-1, -1, -1, U)
    # idx_expanded has shape [N, L, K, U]
    x_out = x[:, :, None].expand(-1, -1, K, -1).gather(1, idx_expanded)

    needs_mask = lengths.min() < K
    if needs_mask:
        mask = lengths[:, None] <= torch.arange(K, device=x.device)[None]
        mask = mask[:, None].expand(-1, L, -1)[..., None].expand(-1, -1, -1, U)
        x_out[mask] = 0.0
    return x_out


class SetAbstraction(nn.Module):
    """PointNet++ style local grouping: FPS centres, ball neighborhoods, shared MLP, max-pool."""

    def __init__(self, in_dim, out_dim, stride=4, K=16, radius=0.1):
        super().__init__()
        self.stride, self.K, self.radius = stride, K, radius
        self.mlp = nn.Sequential(nn.Linear(in_dim + 3, out_dim), nn.ReLU(), nn.Linear(out_dim, out_dim))

    def forward(self, p, x):
        # p: B x N x 3 coordinates, x: B x C x N features
        p_fps, _ = sample_farthest_points(p, K=p.shape[1] // self.stride)
        _, idx, p_nn = ball_query(p_fps, p, K=self.K, radius=self.radius)
        ftrs = x.transpose(1, 2).contiguous()
        grouped = knn_gather(ftrs, idx)
        local = torch.cat([grouped, p_nn - p_fps[:, :, None]], dim=-1)
        return p_fps, self.mlp(local).max(dim=2).values


if __name__ == "__main__":
    torch.manual_seed(0)
    B, N, C = 2, 256, 4
    p = torch.empty(size=(B, N, 3)).normal_(mean=0, std=0.1)
    x = torch.empty(size=(B, C, N)).normal_(mean=0, std=0.1)
    sa = SetAbstraction(C, 32)
    new_p, new_x = sa(p, x)
    print(new_p.shape, new_x.shape)
