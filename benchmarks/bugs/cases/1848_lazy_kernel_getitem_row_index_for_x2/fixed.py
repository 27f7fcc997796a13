"""Lazily evaluated kernel matrix with batch-mode kernels (GPyTorch-style LazyEvaluatedKernelTensor)."""
import torch
from jaxtyping import Float, Int
from torch import Tensor


class RBFKernel:
    def __init__(self, lengthscale: Float[Tensor, "*batch 1 1"]):
        self.lengthscale = lengthscale
        self.batch_shape = lengthscale.shape[:-2]

    def __call__(self, x1: Float[Tensor, "*batch n d"], x2: Float[Tensor, "*batch m d"]) -> Float[Tensor, "*batch n m"]:
        sq_dist = torch.cdist(x1, x2).pow(2)
        return torch.exp(-0.5 * sq_dist / self.lengthscale.pow(2))


class LazyEvaluatedKernelTensor:
    def __init__(self, x1: Float[Tensor, "... n d"], x2: Float[Tensor, "... m d"], kernel: RBFKernel):
        self.x1, self.x2, self.kernel = x1, x2, kernel

    def evaluate(self) -> Float[Tensor, "*batch n m"]:
        return self.kernel(self.x1, self.x2)

    def _getitem(self, row_index: Int[Tensor, " r"], col_index: Int[Tensor, " c"]) -> "LazyEvaluatedKernelTensor":
        x1, x2 = self.x1, self.x2
        batch_shape = self.kernel.batch_shape
        if x1.dim() - 2 >= len(batch_shape):
            x1 = x1.index_select(-2, row_index)
            x2 = x2.index_select(-2, col_index)
        else:
            # the data has fewer batch dims than the kernel: broadcast it first
            x1 = x1.expand(*batch_shape, *x1.shape[-2:]).index_select(-2, row_index)
            x2 = x2.expand(*batch_shape, *x2.shape[-2:]).index_select(-2, col_index)
        return LazyEvaluatedKernelTensor(x1, x2, self.kernel)


if __name__ == "__main__":
    torch.manual_seed(0)
    kernel = RBFKernel(torch.tensor([0.5, 2.0]).view(2, 1, 1))
    x1 = torch.randn(5, 3)
    x2 = torch.randn(5, 3)
    covar = LazyEvaluatedKernelTensor(x1, x2, kernel)
    rows, cols = torch.arange(4), torch.tensor([1, 3, 4])
    block = covar._getitem(rows, cols).evaluate()
    assert block.shape == (2, len(rows), len(cols))
    for b in range(2):
        ls = float(kernel.lengthscale[b, 0, 0])
        for i, r in enumerate(rows.tolist()):
            for j, c in enumerate(cols.tolist()):
                d2 = float(((x1[r] - x2[c]) ** 2).sum())
                ref = torch.exp(torch.tensor(-0.5 * d2 / ls**2))
                assert torch.allclose(block[b, i, j], ref, atol=1e-5)
    print("ok")
