import torch
import torch.nn.functional as F

# Correct patterns that look like the bugs they avoid:
#  - codes stored as uint8 are widened to int64 before they are used as indices,
#  - duplicate destinations are accumulated (index_put_ accumulate=True, index_add_),
#  - segment max ignores the initial buffer (include_self=False),
#  - top-k values and indices come from the same topk call.


def decode_codes(codebook, codes_u8):
    # codebook [K, D] with K <= 256, codes_u8 [B, T] uint8 -> [B, T, D]
    codes = codes_u8.long()
    return codebook.index_select(0, codes.flatten()).view(*codes.shape, -1)


def splat_points(values, ys, xs, height, width):
    # values [N], ys/xs [N] (pixel coords, may repeat) -> canvas [H, W]
    canvas = values.new_zeros(height, width)
    canvas.index_put_((ys, xs), values, accumulate=True)
    return canvas


def segment_max(values, seg, num_segments):
    # values [N, D], seg [N] -> [S, D]
    out = values.new_zeros(num_segments, values.size(-1))
    return out.scatter_reduce(0, seg.unsqueeze(-1).expand_as(values), values, "amax", include_self=False)


def sparsify(x, k):
    # x [R, C] -> dense [R, C] keeping the k largest-magnitude entries per row
    _, idx = x.abs().topk(k, dim=-1)                     # [R, k]
    return torch.zeros_like(x).scatter(-1, idx, x.gather(-1, idx))


if __name__ == "__main__":
    torch.manual_seed(0)
    codebook = torch.randn(200, 4)
    codes = torch.randint(0, 200, (2, 9), dtype=torch.uint8)
    emb = decode_codes(codebook, codes)
    for b in range(2):
        for t in range(9):
            assert torch.equal(emb[b, t], codebook[int(codes[b, t])])

    vals = torch.randn(12)
    ys = torch.tensor([0, 1, 1, 2, 0, 1, 3, 3, 0, 2, 1, 1])
    xs = torch.tensor([0, 2, 2, 1, 0, 2, 3, 3, 0, 1, 0, 2])
    canvas = splat_points(vals, ys, xs, 4, 4)
    ref = torch.zeros(4, 4)
    for i in range(12):
        ref[int(ys[i]), int(xs[i])] += vals[i]
    assert torch.allclose(canvas, ref, atol=1e-6)

    logp = F.logsigmoid(torch.randn(10, 3))
    seg = torch.tensor([0, 0, 1, 1, 1, 2, 2, 2, 2, 0])
    pooled = segment_max(logp, seg, 3)
    for s in range(3):
        rows = [logp[i] for i in range(10) if int(seg[i]) == s]
        assert torch.equal(pooled[s], torch.stack(rows).max(0).values)

    x = torch.randn(3, 20)
    dense = sparsify(x, 4)
    for r in range(3):
        keep = sorted(range(20), key=lambda j: -abs(x[r, j].item()))[:4]
        for j in range(20):
            assert dense[r, j].item() == (x[r, j].item() if j in keep else 0.0)
    print("ok")
