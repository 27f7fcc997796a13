import torch


def knn(x, k):
    # x: [B, C, N] -> idx: [B, N, k] (each point's k nearest points, itself included)
    inner = -2 * torch.matmul(x.transpose(2, 1), x)  # [B, N, N]
    xx = torch.sum(x ** 2, dim=1, keepdim=True)  # [B, 1, N]
    pairwise_distance = -xx - inner - xx.transpose(2, 1)  # [B, N, N]
    return pairwise_distance.topk(k=k, dim=-1)[1]


def get_graph_feature(x, k):
    # x: [B, C, N] -> edge features [B, 2C, N, k] = (x_j - x_i, x_i)
    batch_size, num_dims, num_points = x.shape
    idx = knn(x, k)  # [B, N, k]
    idx_base = torch.arange(0, batch_size, device=x.device).view(-1, 1, 1) * num_points
    idx = (idx + idx_base).view(-1)  # [B * N * k]
    x = x.transpose(2, 1).contiguous()  # [B, N, C]
    feature = x.view(batch_size * num_points, -1)[idx, :]  # [B * N * k, C]
    feature = feature.view(batch_size, num_points, k, num_dims)
    x = x.view(batch_size, num_points, 1, num_dims).expand(-1, -1, k, -1)
    return torch.cat((feature - x, x), dim=3).permute(0, 3, 1, 2).contiguous()


def global_mean_pool(node_feats, batch, num_graphs):
    # node_feats: [N, D], batch: [N] graph id of every node -> [G, D]
    summed = node_feats.new_zeros(num_graphs, node_feats.shape[1]).index_add_(0, batch, node_feats)
    counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1).unsqueeze(1)  # [G, 1]
    return summed / counts


def topk_point_features(feats, scores, k):
    # feats: [B, N, D], scores: [B, N] -> the k highest-scoring points [B, k, D]
    top_idx = scores.topk(k, dim=1).indices  # [B, k]
    return feats.gather(1, top_idx.unsqueeze(-1).expand(-1, -1, feats.shape[-1]))


if __name__ == "__main__":
    torch.manual_seed(0)
    B, C, N, k = 2, 3, 10, 4
    pts = torch.randn(B, C, N)
    edge = get_graph_feature(pts, k)
    idx = knn(pts, k)
    for b in range(B):
        for i in range(N):
            for j in range(k):
                nb = idx[b, i, j].item()
                assert torch.allclose(edge[b, :C, i, j], pts[b, :, nb] - pts[b, :, i])
                assert torch.allclose(edge[b, C:, i, j], pts[b, :, i])
        for i in range(N):
            d = ((pts[b] - pts[b, :, i:i + 1]) ** 2).sum(0)
            assert set(idx[b, i].tolist()) == set(d.topk(k, largest=False).indices.tolist())

    node_feats = torch.randn(9, 5)
    batch = torch.tensor([0, 0, 0, 1, 1, 2, 2, 2, 2])
    pooled = global_mean_pool(node_feats, batch, num_graphs=4)
    for g in range(4):
        rows = [node_feats[n] for n in range(9) if batch[n].item() == g]
        want = torch.stack(rows).mean(0) if rows else torch.zeros(5)
        assert torch.allclose(pooled[g], want, atol=1e-6)

    feats, scores = torch.randn(2, 7, 6), torch.randn(2, 7)
    top = topk_point_features(feats, scores, 3)
    for b in range(2):
        order = sorted(range(7), key=lambda n: -scores[b, n].item())[:3]
        for r, n in enumerate(order):
            assert torch.equal(top[b, r], feats[b, n])
    print("ok")
