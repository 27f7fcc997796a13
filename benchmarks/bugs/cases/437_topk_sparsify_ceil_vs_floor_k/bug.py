import math

import torch


class TopKCompressor:
    """Gradient sparsification for bandwidth-limited data-parallel training: each
    worker sends only the largest-magnitude entries of every row (values in fp16)."""

    def __init__(self, ratio):
        self.ratio = ratio

    def select(self, grad):
        k = math.ceil(grad.size(-1) * self.ratio)
        return grad.abs().topk(k, dim=-1).indices

    def encode(self, grad):
        k = max(1, int(grad.size(-1) * self.ratio))
        _, pos = grad.abs().topk(k, dim=-1)
        return grad.gather(-1, pos).half()

    def decode(self, values, indices, like):
        return torch.zeros_like(like).scatter(-1, indices, values.to(like.dtype))


def all_reduce_sparse(compressor, worker_grads):
    dense = torch.zeros_like(worker_grads[0])
    for g in worker_grads:
        idx = compressor.select(g)
        vals = compressor.encode(g)
        dense += compressor.decode(vals, idx, g)
    return dense / len(worker_grads)


if __name__ == "__main__":
    torch.manual_seed(0)
    grads = [torch.randn(4, 250) for _ in range(3)]
    comp = TopKCompressor(ratio=0.01)
    avg = all_reduce_sparse(comp, grads)
    print("non-zeros per row:", (avg != 0).sum(-1).tolist())
