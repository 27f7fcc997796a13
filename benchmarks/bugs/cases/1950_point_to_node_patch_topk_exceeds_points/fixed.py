import torch


def pairwise_distance(x, y):
    r"""Pairwise squared distance between two point sets.

    Args:
        x (Tensor): (N, C)
        y (Tensor): (M, C)

    Returns:
        sq_distances (Tensor): (N, M)
    """
    xy = torch.matmul(x, y.transpose(-1, -2))
    x2 = (x ** 2).sum(dim=-1).unsqueeze(-1)
    y2 = (y ** 2).sum(dim=-1).unsqueeze(-2)
    return (x2 - 2 * xy + y2).clamp(min=0.0)


def index_select(data, index, dim):
    r"""Advanced index select: `index` does not have to be 1-D.

    Args:
        data (Tensor): (a_0, ..., a_{n-1})
        index (LongTensor): (b_0, ..., b_{m-1})
        dim (int)

    Returns:
        output (Tensor): (a_0, ..., a_{dim-1}, b_0, ..., b_{m-1}, a_{dim+1}, ..., a_{n-1})
    """
    output = data.index_select(dim, index.view(-1))
    if index.ndim > 1:
        output_shape = data.shape[:dim] + index.shape + data.shape[dim:][1:]
        output = output.view(*output_shape)
    return output


@torch.no_grad()
def point_to_node_partition(points, nodes, point_limit):
    r"""Point-to-Node partition of the point cloud.

    Every point goes to its nearest node; each node keeps at most `point_limit` points.

    Args:
        points (Tensor): (N, 3)
        nodes (Tensor): (M, 3)
        point_limit (int): max number of points in each node patch (K)

    Returns:
        point_to_node (LongTensor): (N,)
        node_masks (BoolTensor): (M,)
        node_knn_indices (LongTensor): (M, K), padded with N
        node_knn_masks (BoolTensor): (M, K)
    """
    sq_dist_mat = pairwise_distance(nodes, points)

    point_to_node = sq_dist_mat.min(dim=0)[1]
    node_masks = torch.zeros(nodes.shape[0], dtype=torch.bool)
    node_masks.index_fill_(0, point_to_node, True)

    matching_masks = torch.zeros_like(sq_dist_mat, dtype=torch.bool)
    point_indices = torch.arange(points.shape[0])
    matching_masks[point_to_node, point_indices] = True
    sq_dist_mat.masked_fill_(~matching_masks, 1e12)

    num_points = points.shape[0]
    k = min(point_limit, num_points)
    node_knn_indices = sq_dist_mat.topk(k=k, dim=1, largest=False)[1]
    node_knn_node_indices = index_select(point_to_node, node_knn_indices, dim=0)
    node_indices = torch.arange(nodes.shape[0]).unsqueeze(1).expand(-1, k)
    node_knn_masks = torch.eq(node_knn_node_indices, node_indices)
    node_knn_indices.masked_fill_(~node_knn_masks, num_points)
    if k < point_limit:
        pad = point_limit - k
        node_knn_indices = torch.nn.functional.pad(node_knn_indices, (0, pad), value=num_points)
        node_knn_masks = torch.nn.functional.pad(node_knn_masks, (0, pad), value=False)

    return point_to_node, node_masks, node_knn_indices, node_knn_masks


def build_patches(points, feats, nodes, point_limit):
    r"""Group the dense points and features into node-centred patches.

    Args:
        points (Tensor): (N, 3)
        feats (Tensor): (N, C)
        nodes (Tensor): (M, 3)

    Returns:
        patch_points (Tensor): (M, K, 3), padded points are zeros
        patch_feats (Tensor): (M, K, C)
        patch_masks (BoolTensor): (M, K)
    """
    _, node_masks, knn_indices, knn_masks = point_to_node_partition(points, nodes, point_limit)
    padded_points = torch.cat([points, torch.zeros_like(points[:1])], dim=0)
    padded_feats = torch.cat([feats, torch.zeros_like(feats[:1])], dim=0)
    patch_points = index_select(padded_points, knn_indices, dim=0)
    patch_feats = index_select(padded_feats, knn_indices, dim=0)
    return patch_points, patch_feats, knn_masks


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_points_in_patch": 64, "num_nodes": 8, "feat_dim": 16}
    # a small, heavily cropped fragment: fewer dense points than the patch size
    ref_points = torch.rand(40, 3)
    ref_feats = torch.randn(40, cfg["feat_dim"])
    ref_nodes = ref_points[torch.randperm(40)[: cfg["num_nodes"]]]
    patch_points, patch_feats, patch_masks = build_patches(
        ref_points, ref_feats, ref_nodes, cfg["num_points_in_patch"]
    )
    assert tuple(patch_points.shape) == (8, 64, 3)
    # reference: assign every point to its nearest node with plain loops
    pts, nds = ref_points.tolist(), ref_nodes.tolist()
    owner = []
    for p in pts:
        d = [sum((p[c] - n[c]) ** 2 for c in range(3)) for n in nds]
        owner.append(min(range(len(nds)), key=lambda m: d[m]))
    for m in range(len(nds)):
        members = sorted(i for i in range(len(pts)) if owner[i] == m)
        got = []
        for slot in range(cfg["num_points_in_patch"]):
            if patch_masks[m, slot]:
                row = patch_points[m, slot].tolist()
                got.append(pts.index(row))
                assert torch.equal(patch_feats[m, slot], ref_feats[pts.index(row)])
            else:
                assert torch.all(patch_points[m, slot] == 0)
        assert sorted(got) == members, (m, sorted(got), members)
    print("ok")
