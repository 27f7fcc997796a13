"""Point-cloud semantic segmentation utilities: grid sampling, kNN grouping,
feature propagation and a Dice loss that ignores unlabeled points."""
import torch
import torch.nn.functional as F


def grid_sample(coord, feat, grid_size, point_cloud_range):
    """Average the points that fall into the same voxel.

    Args:
        coord (Tensor): (N, 3) xyz.
        feat (Tensor): (N, C) point features.
        grid_size (float): voxel edge length.
        point_cloud_range (list[float]): [x_min, y_min, z_min, x_max, y_max, z_max].

    Returns:
        tuple: voxel centroids (M, 3), voxel features (M, C), point-to-voxel map (N',)
        and the mask (N,) of the points kept (inside [min, max)).
    """
    lo = coord.new_tensor(point_cloud_range[:3])
    hi = coord.new_tensor(point_cloud_range[3:])
    keep = ((coord >= lo) & (coord < hi)).all(dim=1)
    coord, feat = coord[keep], feat[keep]
    grid = torch.floor((coord - lo) / grid_size).long()
    _, inverse = torch.unique(grid, dim=0, return_inverse=True)
    num_voxels = int(inverse.max()) + 1
    counts = torch.bincount(inverse, minlength=num_voxels).clamp(min=1).unsqueeze(1)
    centroid = coord.new_zeros(num_voxels, 3).index_add_(0, inverse, coord) / counts
    vfeat = feat.new_zeros(num_voxels, feat.size(1)).index_add_(0, inverse, feat) / counts
    return centroid, vfeat, inverse, keep


def knn_group(xyz, feat, k):
    """Gather the features of the k nearest neighbours of every point.

    Args:
        xyz (Tensor): (B, N, 3).
        feat (Tensor): (B, N, C).
        k (int): neighbours per point (self included).

    Returns:
        Tensor: (B, N, k, C) neighbour features and (B, N, k) neighbour ids.
    """
    B, N, C = feat.shape
    idx = torch.cdist(xyz, xyz).topk(k, dim=-1, largest=False).indices  # (B, N, k)
    flat = idx.reshape(B, N * k, 1).expand(-1, -1, C)
    grouped = feat.gather(1, flat).reshape(B, N, k, C)
    return grouped, idx


def three_nn_interpolate(unknown, known, known_feat):
    """Inverse-distance interpolation from the 3 nearest known points.

    Args:
        unknown (Tensor): (B, n, 3) query points.
        known (Tensor): (B, m, 3) points carrying features.
        known_feat (Tensor): (B, m, C).

    Returns:
        Tensor: (B, n, C).
    """
    dist, idx = torch.cdist(unknown, known).topk(3, dim=-1, largest=False)  # (B, n, 3)
    weight = 1.0 / (dist + 1e-8)
    weight = weight / weight.sum(dim=-1, keepdim=True)
    B, n, _ = idx.shape
    C = known_feat.size(-1)
    neigh = torch.gather(known_feat, 1, idx.reshape(B, n * 3, 1).expand(-1, -1, C)).reshape(B, n, 3, C)
    return (neigh * weight.unsqueeze(-1)).sum(dim=2)


def masked_dice_loss(logits, labels, num_classes, ignore_index=255, eps=1e-6):
    """Soft Dice over the labelled points only.

    Args:
        logits (Tensor): (N, num_classes).
        labels (LongTensor): (N,), ignore_index for unlabeled points.

    Returns:
        Tensor: scalar loss.
    """
    valid = labels != ignore_index
    prob = logits.softmax(dim=-1)[valid]
    target = F.one_hot(labels[valid], num_classes).to(prob.dtype)
    inter = (prob * target).sum(dim=0)
    denom = prob.sum(dim=0) + target.sum(dim=0)
    return 1.0 - ((2 * inter + eps) / (denom + eps)).mean()


def point_labels_to_voxels(labels, inverse, num_voxels, num_classes, ignore_index=255):
    """Majority label of every voxel, unlabeled points excluded."""
    valid = labels != ignore_index
    votes = torch.zeros(num_voxels, num_classes, dtype=torch.long)
    votes.index_put_((inverse[valid], labels[valid]), torch.ones(int(valid.sum()), dtype=torch.long),
                     accumulate=True)
    voxel_label = votes.argmax(dim=1)
    voxel_label[votes.sum(dim=1) == 0] = ignore_index
    return voxel_label


if __name__ == "__main__":
    torch.manual_seed(0)
    N, C, K = 300, 4, 8
    coord = torch.rand(N, 3) * 4.0
    coord[0] = torch.tensor([4.0, 1.0, 1.0])  # on the border: dropped, not wrapped
    feat = torch.randn(N, C)
    labels = torch.randint(0, 5, (N,))
    labels[torch.rand(N) < 0.1] = 255

    centroid, vfeat, inverse, keep = grid_sample(coord, feat, 1.0, [0, 0, 0, 4, 4, 4])
    kept_coord, kept_feat, kept_labels = coord[keep], feat[keep], labels[keep]
    assert keep.sum() == N - 1
    for v in range(centroid.size(0)):
        members = (inverse == v).nonzero().flatten().tolist()
        assert torch.allclose(vfeat[v], kept_feat[members].mean(0), atol=1e-5)
        assert torch.allclose(centroid[v], kept_coord[members].mean(0), atol=1e-5)

    vlabel = point_labels_to_voxels(kept_labels, inverse, centroid.size(0), 5)
    for v in range(centroid.size(0)):
        ls = [int(l) for l, i in zip(kept_labels, inverse) if int(i) == v and int(l) != 255]
        if not ls:
            assert vlabel[v] == 255
        else:
            counts = [ls.count(c) for c in range(5)]
            assert counts[int(vlabel[v])] == max(counts)

    xyz = centroid.unsqueeze(0)
    grouped, idx = knn_group(xyz, vfeat.unsqueeze(0), K)
    for i in range(0, centroid.size(0), 7):
        for j in range(K):
            assert torch.equal(grouped[0, i, j], vfeat[idx[0, i, j]])

    up = three_nn_interpolate(kept_coord.unsqueeze(0), xyz, vfeat.unsqueeze(0))
    for i in range(0, kept_coord.size(0), 13):
        d = ((centroid - kept_coord[i]) ** 2).sum(-1).sqrt()
        near = d.argsort()[:3]
        w = 1.0 / (d[near] + 1e-8)
        ref = (vfeat[near] * (w / w.sum())[:, None]).sum(0)
        assert torch.allclose(up[0, i], ref, atol=1e-4)

    logits = torch.randn(kept_coord.size(0), 5)
    loss = masked_dice_loss(logits, kept_labels, 5)
    prob = logits.softmax(-1)
    dices = []
    for c in range(5):
        rows = [i for i in range(len(kept_labels)) if int(kept_labels[i]) != 255]
        inter = sum(prob[i, c].item() for i in rows if int(kept_labels[i]) == c)
        denom = sum(prob[i, c].item() for i in rows) + sum(1 for i in rows if int(kept_labels[i]) == c)
        dices.append((2 * inter + 1e-6) / (denom + 1e-6))
    assert abs(loss.item() - (1 - sum(dices) / 5)) < 1e-5
    print("ok")
