import torch
from torch import Tensor


def group_cat(tensors, indices, dim=0):
    """Concatenate tensors and regroup their entries by group index.

    Entries that share a group index end up next to each other; the relative order inside a
    group is kept (stable sort).

    Args:
        tensors (List[Tensor]): tensors to concatenate; ``tensors[i]`` holds ``indices[i].numel()``
            entries along ``dim`` and all tensors agree on every other dimension.
        indices (List[LongTensor]): ``indices[i]`` has shape ``(tensors[i].size(dim),)`` and gives
            the group of every entry of ``tensors[i]``.
        dim (int): the dimension along which the entries are laid out.

    Returns:
        Tensor: the concatenation, sorted by group along ``dim``.
    """
    assert len(tensors) == len(indices)
    index, perm = torch.cat(indices).sort(stable=True)
    out = torch.cat(tensors, dim=dim).index_select(dim, perm)
    return out


def merge_point_features(lidar_feats: Tensor, radar_feats: Tensor,
                         lidar_batch: Tensor, radar_batch: Tensor) -> Tensor:
    """Merge two point sets stored channels-first.

    Args:
        lidar_feats: ``(C, N_lidar)`` per-point features.
        radar_feats: ``(C, N_radar)`` per-point features.
        lidar_batch: ``(N_lidar,)`` sample id of every lidar point.
        radar_batch: ``(N_radar,)`` sample id of every radar point.

    Returns:
        ``(C, N_lidar + N_radar)`` features, points of sample 0 first, then sample 1, ...
    """
    return group_cat([lidar_feats, radar_feats], [lidar_batch, radar_batch], dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    channels = 4
    lidar = torch.randn(channels, 5)
    radar = torch.randn(channels, 3)
    lidar_batch = torch.tensor([0, 0, 1, 1, 1])
    radar_batch = torch.tensor([0, 1, 1])
    merged = merge_point_features(lidar, radar, lidar_batch, radar_batch)
    # reference: walk the samples in order, lidar points before radar points inside a sample
    cols = []
    for b in range(2):
        for feats, batch in ((lidar, lidar_batch), (radar, radar_batch)):
            for j in range(batch.numel()):
                if batch[j].item() == b:
                    cols.append(feats[:, j])
    ref = torch.stack(cols, dim=1)
    assert merged.shape == ref.shape and torch.equal(merged, ref)
    print("ok")
