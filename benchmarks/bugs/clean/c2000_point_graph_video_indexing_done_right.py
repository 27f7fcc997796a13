import torch
import torch.nn.functional as F


def knn_group(points, feats, centers, k):
    # points: [B, N, 3], feats: [B, N, C], centers: [B, M, 3]
    dist = torch.cdist(centers, points)                                  # [B, M, N]
    idx = dist.topk(k, dim=-1, largest=False).indices                    # [B, M, K]
    B, M, K = idx.shape
    C = feats.shape[-1]
    flat = idx.reshape(B, M * K, 1).expand(B, M * K, C)                  # [B, M*K, C]
    grouped = torch.gather(feats, 1, flat).reshape(B, M, K, C)           # [B, M, K, C]
    return idx, grouped


def scatter_mean_nodes(x, index, num_segments):
    # x: [E, C], index: [E] -> [S, C]; empty segments stay zero
    out = torch.zeros(num_segments, x.shape[1]).index_add_(0, index, x)
    count = torch.bincount(index, minlength=num_segments).clamp(min=1)   # [S]
    return out / count.unsqueeze(-1)                                     # [S, C] / [S, 1]


def per_image_topk(scores, boxes, k):
    # scores: [B, A], boxes: [B, A, 4] -> [B, k], [B, k, 4]
    top_scores, top_idx = scores.topk(k, dim=1)                          # [B, k]
    batch_idx = torch.arange(scores.shape[0])[:, None]                   # [B, 1]
    return top_scores, boxes[batch_idx, top_idx]                         # [B, k, 4]


def pick_frames(video, frame_idx):
    # video: [B, C, T, H, W], frame_idx: [B] -> [B, C, H, W]
    index = frame_idx.view(-1, 1, 1, 1, 1).expand(-1, video.shape[1], 1, *video.shape[3:])
    return video.gather(2, index).squeeze(2)


def extract(a, t, x_shape):
    # a: [T], t: [B] -> [B, 1, 1, 1]
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


if __name__ == "__main__":
    torch.manual_seed(0)

    # point cloud grouping
    points, feats = torch.randn(2, 30, 3), torch.randn(2, 30, 5)
    centers = points[:, :6]
    idx, grouped = knn_group(points, feats, centers, k=4)
    for b in range(2):
        for m in range(6):
            d = [((centers[b, m] - points[b, n]).norm().item(), n) for n in range(30)]
            d.sort()
            assert sorted(idx[b, m].tolist()) == sorted(n for _, n in d[:4])
            for kk in range(4):
                assert torch.equal(grouped[b, m, kk], feats[b, idx[b, m, kk]])

    # graph readout with an empty graph id
    x = torch.randn(9, 3)
    graph = torch.tensor([0, 0, 1, 1, 1, 3, 3, 3, 3])
    pooled = scatter_mean_nodes(x, graph, num_segments=4)
    for s in range(4):
        rows = [x[i] for i in range(9) if graph[i] == s]
        ref = torch.stack(rows).mean(0) if rows else torch.zeros(3)
        assert torch.allclose(pooled[s], ref, atol=1e-6)

    # per-image proposal selection
    scores, boxes = torch.rand(3, 20), torch.rand(3, 20, 4)
    scores[0] += 5.0
    top_scores, top_boxes = per_image_topk(scores, boxes, k=5)
    for b in range(3):
        order = sorted(range(20), key=lambda a: -scores[b, a].item())[:5]
        assert torch.allclose(top_scores[b], scores[b, order])
        assert torch.equal(top_boxes[b], boxes[b, order])

    # one frame per clip
    video = torch.randn(3, 2, 7, 4, 4)
    frame_idx = torch.tensor([6, 0, 3])
    frames = pick_frames(video, frame_idx)
    for b in range(3):
        assert torch.equal(frames[b], video[b, :, frame_idx[b]])

    # diffusion schedule lookup and masked segmentation loss
    alphas_cumprod = torch.cumprod(1 - torch.linspace(1e-4, 2e-2, 50), 0)
    t = torch.tensor([0, 49, 10])
    coef = extract(alphas_cumprod, t, (3, 4, 8, 8))
    for b in range(3):
        assert coef[b, 0, 0, 0] == alphas_cumprod[t[b]]
    logits, target = torch.randn(10, 4), torch.tensor([0, 1, -1, 3, 2, -1, 1, 0, 3, 2])
    loss = F.cross_entropy(logits, target, ignore_index=-1)
    ref = [(torch.logsumexp(logits[i], 0) - logits[i, target[i]]).item() for i in range(10) if target[i] != -1]
    assert abs(loss.item() - sum(ref) / len(ref)) < 1e-5
    print("ok")
