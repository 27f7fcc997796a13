import torch


def consecutive_cluster(cluster):
    # cluster: [N] arbitrary cluster ids -> (inv [N] in 0..K-1, perm [K] one member per cluster)
    unique, inv = torch.unique(cluster, sorted=True, return_inverse=True)
    arange = torch.arange(inv.size(0), dtype=inv.dtype)
    perm = inv.new_empty(unique.size(0)).scatter_(0, inv, arange)   # any member is a valid representative
    return inv, perm


def max_pool_clusters(x, pos, batch, cluster):
    # x: [N, C] features, pos: [N, 3], batch: [N], cluster: [N]
    inv, perm = consecutive_cluster(cluster)
    num_clusters = perm.numel()
    index = inv.unsqueeze(1).expand(-1, x.size(1))                   # [N, C]
    pooled = x.new_zeros(num_clusters, x.size(1)).scatter_reduce(
        0, index, x, reduce="amax", include_self=False)               # [K, C]
    counts = torch.bincount(inv, minlength=num_clusters).clamp(min=1).unsqueeze(1).to(pos.dtype)
    pooled_pos = pos.new_zeros(num_clusters, 3).index_add_(0, inv, pos) / counts
    return pooled, pooled_pos, batch[perm], inv


def unpool(pooled, inv):
    # pooled: [K, C], inv: [N] -> [N, C]
    return torch.gather(pooled, 0, inv.unsqueeze(1).expand(-1, pooled.size(1)))


if __name__ == "__main__":
    torch.manual_seed(0)
    n = 40
    x = torch.randn(n, 6)
    pos = torch.rand(n, 3)
    batch = torch.cat([torch.zeros(20, dtype=torch.long), torch.ones(20, dtype=torch.long)])
    cluster = (pos[:, 0] * 3).long() + 10 * batch                    # clusters never cross samples
    pooled, pooled_pos, pooled_batch, inv = max_pool_clusters(x, pos, batch, cluster)
    back = unpool(pooled, inv)

    ids = sorted(set(cluster.tolist()))
    for k, cid in enumerate(ids):
        members = [i for i in range(n) if int(cluster[i]) == cid]
        ref = torch.stack([x[i] for i in members]).max(0).values
        assert torch.allclose(pooled[k], ref)
        assert torch.allclose(pooled_pos[k], sum(pos[i] for i in members) / len(members), atol=1e-6)
        assert int(pooled_batch[k]) == int(batch[members[0]])
        for i in members:
            assert torch.allclose(back[i], ref)
    print("ok")
