import math

import torch


class TopKCompressor:
    """Gradient sparsification for bandwidth-limited data-parallel training: each
    worker sends only the largest-magnitude entries of every row (values in fp16)."""

    def __init__(self, ratio):
        self.ratio = ratio

    def num_kept(self, n):
        return max(1, math.ceil(n * self.ratio))

    def select(self, grad):
        k = self.num_kept(grad.size(-1))
        return grad.abs().topk(k, dim=-1).indices

    def encode(self, grad, indices):
        return grad.gather(-1, indices).half()

    def decode(self, values, indices, like):
        return torch.zeros_like(like).scatter(-1, indices, values.to(like.dtype))


def all_reduce_sparse(compressor, worker_grads):
    dense = torch.zeros_like(worker_grads[0])
    for g in worker_grads:
        idx = compressor.select(g)
        vals = compressor.encode(g, idx)
        dense += compressor.decode(vals, idx, g)
    return dense / len(worker_grads)


if __name__ == "__main__":
    torch.manual_seed(0)
    grads = [torch.randn(4, 250) for _ in range(3)]
    comp = TopKCompressor(ratio=0.01)
    avg = all_reduce_sparse(comp, grads)
    ref = torch.zeros(4, 250)
    for g in grads:
        for r in range(4):
            order = sorted(range(250), key=lambda j: -abs(g[r, j].item()))[:3]
            for j in order:
                ref[r, j] += g[r, j].half().float()
    ref /= len(grads)
    assert torch.allclose(avg, ref, atol=1e-6)
    print("ok")
