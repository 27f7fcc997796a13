import torch
import torch.nn.functional as F


def bev_point_counts(points, grid, cell):
    # points: [N, 3] xyz in metres; grid: (H, W) cells; returns [H, W] counts and [H, W] max height
    h, w = grid
    ix = (points[:, 0] / cell).floor().long().clamp(0, w - 1)     # [N]
    iy = (points[:, 1] / cell).floor().long().clamp(0, h - 1)     # [N]
    flat = iy * w + ix                                            # [N]
    counts = torch.zeros(h * w)
    counts.index_put_((flat,), torch.ones(flat.numel()), accumulate=True)
    top = torch.full((h * w,), float("-inf"))
    top = top.scatter_reduce(0, flat, points[:, 2], reduce="amax", include_self=True)
    top = torch.where(counts > 0, top, torch.zeros_like(top))
    return counts.view(h, w), top.view(h, w)


def sparse_row_sgd(table, ids, row_grads, lr):
    # table: [V, D]; ids: [B] (repeats allowed); row_grads: [B, D]
    table.index_add_(0, ids, -lr * row_grads)
    return table


def peak_values(heat, values):
    # heat: [K, H, W] scores; values: [H, W] map; returns [K] value at each peak
    flat = heat.flatten(1).argmax(dim=1)                          # [K] indices into H*W
    return values.reshape(-1).gather(0, flat)


def gold_logprob(logits, target):
    # logits: [B, C]; target: [B]
    return F.log_softmax(logits, dim=-1).gather(1, target.unsqueeze(1)).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    pts = torch.rand(300, 3) * torch.tensor([4.0, 3.0, 2.0])
    counts, top = bev_point_counts(pts, (6, 8), 0.5)
    ref_c = torch.zeros(6, 8)
    ref_t = torch.zeros(6, 8)
    for x, y, z in pts.tolist():
        cx, cy = min(int(x // 0.5), 7), min(int(y // 0.5), 5)
        ref_t[cy, cx] = z if ref_c[cy, cx] == 0 else max(ref_t[cy, cx].item(), z)
        ref_c[cy, cx] += 1
    assert torch.equal(counts, ref_c)
    assert torch.allclose(top, ref_t)

    table = torch.randn(10, 4)
    ids = torch.tensor([3, 3, 1, 3, 9])
    g = torch.randn(5, 4)
    ref = table.clone()
    for i, row in zip(ids.tolist(), g):
        ref[i] -= 0.1 * row
    assert torch.allclose(sparse_row_sgd(table.clone(), ids, g, 0.1), ref, atol=1e-6)

    heat, vals = torch.rand(4, 5, 7), torch.rand(5, 7)
    got = peak_values(heat, vals)
    for k in range(4):
        best = max(((heat[k, y, x].item(), y, x) for y in range(5) for x in range(7)))
        assert got[k].item() == vals[best[1], best[2]].item()

    logits, tgt = torch.randn(6, 3), torch.tensor([0, 2, 1, 1, 0, 2])
    lp = gold_logprob(logits, tgt)
    for b in range(6):
        row = logits[b]
        assert abs(lp[b].item() - (row[tgt[b]] - torch.logsumexp(row, 0)).item()) < 1e-5
    print("ok")
