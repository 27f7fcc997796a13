import torch


class SegmentMax(torch.autograd.Function):
    """Max-pool rows of src into segments, routing the gradient to the argmax row."""

    @staticmethod
    def forward(ctx, src, index, num_segments):
        # src: [N, C] point features, index: [N] segment id of every point
        N, C = src.shape
        idx = index.unsqueeze(-1).expand(-1, C)                      # [N, C]
        out = src.new_full((num_segments, C), float("-inf"))         # [S, C]
        out.scatter_reduce_(0, idx, src, reduce="amax")
        # argmax per (segment, channel); N marks a segment that received no point
        rows = torch.arange(N).unsqueeze(-1).expand(-1, C)           # [N, C]
        cand = torch.where(src == out.gather(0, idx), rows, torch.full_like(rows, N))
        arg = torch.full((num_segments, C), N, dtype=torch.long)     # [S, C]
        arg.scatter_reduce_(0, idx, cand, reduce="amin")
        out = out.masked_fill(arg == N, 0.0)
        ctx.save_for_backward(arg)
        ctx.num_rows = N
        return out

    @staticmethod
    def backward(ctx, grad_out):
        (arg,) = ctx.saved_tensors
        # grad_out: [S, C] -> grad_src: [N, C]
        # one spare row absorbs the gradient of empty segments (arg == N)
        grad_src = grad_out.new_zeros(ctx.num_rows + 1, grad_out.size(1))
        grad_src.scatter_(0, arg, grad_out)
        return grad_src.narrow(0, 0, ctx.num_rows), None, None


def voxel_pool(points, voxel_ids, num_voxels):
    return SegmentMax.apply(points, voxel_ids, num_voxels)


if __name__ == "__main__":
    torch.manual_seed(0)
    feats = torch.randn(7, 3, requires_grad=True)     # 7 points, 3 channels
    voxel_ids = torch.tensor([0, 0, 1, 3, 3, 3, 1])   # voxel 2 is empty
    pooled = voxel_pool(feats, voxel_ids, 4)
    w = torch.arange(1.0, 13.0).view(4, 3)
    (pooled * w).sum().backward()
    ref_out = torch.zeros(4, 3)
    ref_grad = torch.zeros(7, 3)
    for s in range(4):
        for c in range(3):
            members = [i for i in range(7) if voxel_ids[i].item() == s]
            if not members:
                continue
            best = max(members, key=lambda i: feats[i, c].item())
            ref_out[s, c] = feats[best, c].item()
            ref_grad[best, c] += w[s, c]
    assert torch.allclose(pooled.detach(), ref_out)
    assert torch.allclose(feats.grad, ref_grad)
    print("ok")
