import torch
from torch.autograd import Function


class GatherPoints(Function):
    """Pure-PyTorch fallback for the CUDA gather_points op of PointNet++."""

    @staticmethod
    def forward(ctx, features, idx):
        # features: (B, C, N)   idx: (B, npoint) int64
        B, C, N = features.shape
        ctx.save_for_backward(idx)
        ctx.num_points = N
        index = idx.unsqueeze(1).expand(-1, C, -1)  # (B, C, npoint)
        return features.gather(2, index)  # (B, C, npoint)

    @staticmethod
    def backward(ctx, grad_out):
        # grad_out: (B, C, npoint)
        (idx,) = ctx.saved_tensors
        B, C, _ = grad_out.shape
        grad_features = grad_out.new_zeros(B, C, ctx.num_points)  # (B, C, N)
        grad_features.scatter_add_(2, idx.unsqueeze(1), grad_out)
        return grad_features, None


gather_operation = GatherPoints.apply


def furthest_point_sample(xyz, npoint):
    # xyz: (B, N, 3) -> (B, npoint) indices of a farthest-point subset
    B, N, _ = xyz.shape
    idx = torch.zeros(B, npoint, dtype=torch.long)
    dist = torch.full((B, N), float("inf"))
    farthest = torch.zeros(B, dtype=torch.long)
    for i in range(npoint):
        idx[:, i] = farthest
        centroid = xyz[torch.arange(B), farthest].unsqueeze(1)  # (B, 1, 3)
        dist = torch.minimum(dist, ((xyz - centroid) ** 2).sum(-1))
        farthest = dist.argmax(-1)
    return idx


if __name__ == "__main__":
    torch.manual_seed(0)
    xyz = torch.randn(2, 32, 3)
    feats = torch.randn(2, 5, 32, requires_grad=True)  # (B, C, N) point features
    fps_idx = furthest_point_sample(xyz, 8)
    sampled = gather_operation(feats, fps_idx)  # (B, C, 8)
    sampled.pow(2).sum().backward()
    touched = (feats.grad != 0).any(-1)  # (B, C): channels that received a gradient
    print("channels with gradient per cloud:", touched.sum(-1).tolist(), "of", feats.shape[1])
