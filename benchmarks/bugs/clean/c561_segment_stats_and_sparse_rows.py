"""Per-segment statistics and sparse row updates that look like common scatter mistakes but are correct."""
import torch


def segment_stats(values, segment, num_segments=None):
    # values: [N, D] float, segment: [N] int64 (not sorted)
    if num_segments is None:
        num_segments = int(segment.max()) + 1
    index = segment.unsqueeze(-1).expand_as(values)  # [N, D]
    total = values.new_zeros(num_segments, values.size(1)).scatter_add_(0, index, values)
    count = values.new_zeros(num_segments).scatter_add_(0, segment, torch.ones_like(values[:, 0]))
    vmax = values.new_zeros(num_segments, values.size(1)).scatter_reduce(
        0, index, values, reduce="amax", include_self=False)
    return total / count.clamp(min=1).unsqueeze(-1), vmax, count


def accumulate_row_grads(num_rows, idx, grad):
    # idx: [K] with repeats, grad: [K, D] -> [num_rows, D] summed per row
    out = grad.new_zeros(num_rows, grad.size(1))
    out.index_add_(0, idx, grad)
    return out


def true_class_prob(logits, target):
    # logits: [B, C], target: [B] int32 from a compact label store
    prob = torch.softmax(logits, dim=-1)  # [B, C]
    return prob.gather(1, target.unsqueeze(1)).squeeze(1)  # [B]


if __name__ == "__main__":
    torch.manual_seed(0)
    values = torch.randn(9, 3)
    segment = torch.tensor([2, 0, 1, 2, 0, 2, 1, 1, 0])
    mean, vmax, count = segment_stats(values, segment)
    for s in range(3):
        rows = values[segment == s]
        assert count[s].item() == rows.size(0)
        assert torch.allclose(mean[s], rows.mean(0), atol=1e-6)
        assert torch.allclose(vmax[s], rows.max(0).values)

    idx = torch.tensor([4, 1, 4, 4, 0])
    grad = torch.randn(5, 2)
    acc = accumulate_row_grads(6, idx, grad)
    ref = torch.zeros(6, 2)
    for k, r in enumerate(idx.tolist()):
        ref[r] += grad[k]
    assert torch.allclose(acc, ref, atol=1e-6)

    logits = torch.randn(4, 5)
    target = torch.tensor([3, 0, 4, 1], dtype=torch.int32)
    p = true_class_prob(logits, target)
    for i in range(4):
        e = torch.exp(logits[i] - logits[i].max())
        assert abs(p[i].item() - (e / e.sum())[int(target[i])].item()) < 1e-6
    print("ok")
