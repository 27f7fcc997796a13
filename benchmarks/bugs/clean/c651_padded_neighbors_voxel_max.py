import torch


def pad_neighbors(adj_lists, pad=-1):
    # adj_lists: N lists of neighbour ids -> nbr (N, K) int64 with -1 padding, mask (N, K) bool
    k = max(len(a) for a in adj_lists)
    nbr = torch.full((len(adj_lists), k), pad, dtype=torch.long)
    for i, a in enumerate(adj_lists):
        nbr[i, : len(a)] = torch.tensor(a, dtype=torch.long)
    return nbr, nbr >= 0


def neighbor_max(x, nbr, mask):
    # x: (N, C); nbr, mask: (N, K) -> (N, C) max over real neighbours (-inf where none)
    n, k = nbr.shape
    c = x.size(1)
    safe = nbr.clamp(min=0)
    feats = torch.gather(x.unsqueeze(0).expand(n, -1, -1), 1, safe.unsqueeze(-1).expand(n, k, c))
    feats = feats.masked_fill(~mask.unsqueeze(-1), float("-inf"))
    return feats.max(dim=1).values


def voxel_max(point_feats, voxel_of_point, num_voxels):
    # point_feats: (P, C); voxel_of_point: (P,) int64 -> (num_voxels, C)
    index = voxel_of_point.unsqueeze(1).expand_as(point_feats)
    out = point_feats.new_zeros(num_voxels, point_feats.size(1))
    return out.scatter_reduce(0, index, point_feats, reduce="amax", include_self=False)


if __name__ == "__main__":
    torch.manual_seed(0)
    adj = [[1, 2], [0], [0, 1, 3], [2]]
    x = torch.randn(4, 3)
    nbr, mask = pad_neighbors(adj)
    h = neighbor_max(x, nbr, mask)
    for i, a in enumerate(adj):
        ref = torch.stack([x[j] for j in a]).max(dim=0).values
        assert torch.equal(h[i], ref)

    pf = -torch.rand(10, 5)
    vox = torch.tensor([0, 2, 2, 1, 0, 3, 3, 3, 1, 0])
    vm = voxel_max(pf, vox, 4)
    for v in range(4):
        members = [p for p in range(10) if int(vox[p]) == v]
        ref = torch.stack([pf[p] for p in members]).max(dim=0).values
        assert torch.equal(vm[v], ref)
    print("ok")
