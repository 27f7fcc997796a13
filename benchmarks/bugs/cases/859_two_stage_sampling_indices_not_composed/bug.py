import torch


def furthest_point_sample(xyz, npoint):
    # xyz: (B, N, 3) -> inds: (B, npoint) indices into the N points
    B, N, _ = xyz.shape
    inds = torch.zeros(B, npoint, dtype=torch.long)
    dist = torch.full((B, N), float("inf"))
    far = torch.zeros(B, dtype=torch.long)
    for i in range(npoint):
        inds[:, i] = far
        centre = xyz[torch.arange(B), far][:, None]  # (B, 1, 3)
        dist = torch.minimum(dist, ((xyz - centre) ** 2).sum(-1))
        far = dist.argmax(-1)
    return inds


def gather_points(xyz, inds):
    # xyz: (B, N, C), inds: (B, M) -> (B, M, C)
    return xyz.gather(1, inds[..., None].expand(-1, -1, xyz.shape[-1]))


def run_encoder(xyz, pre_npoint, enc_npoint):
    # stage 1: (B, N, 3) -> (B, pre_npoint, 3); stage 2: -> (B, enc_npoint, 3)
    pre_inds = furthest_point_sample(xyz, pre_npoint)
    pre_xyz = gather_points(xyz, pre_inds)
    enc_inds = furthest_point_sample(pre_xyz, enc_npoint)  # (B, enc_npoint)
    enc_xyz = gather_points(pre_xyz, enc_inds)
    return enc_xyz, enc_inds


def seed_labels(point_labels, xyz, pre_npoint=64, enc_npoint=16):
    # point_labels: (B, N) semantic label of every raw point
    enc_xyz, enc_inds = run_encoder(xyz, pre_npoint, enc_npoint)
    labels = point_labels.gather(1, enc_inds)  # (B, enc_npoint)
    return enc_xyz, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    xyz = torch.rand(2, 256, 3)
    point_labels = (xyz[..., 0] > 0.5).long() + 2 * (xyz[..., 1] > 0.5).long()
    enc_xyz, labels = seed_labels(point_labels, xyz)
    truth = (enc_xyz[..., 0] > 0.5).long() + 2 * (enc_xyz[..., 1] > 0.5).long()
    print("label agreement with seed positions:", (labels == truth).float().mean().item())
