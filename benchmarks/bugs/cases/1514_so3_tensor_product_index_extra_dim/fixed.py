import torch
from torch import nn


def scatter_add(x: torch.Tensor, idx_i: torch.Tensor, dim_size: int, dim: int = 0) -> torch.Tensor:
    """
    Sum over values with the same indices.

    Args:
        x: input values
        idx_i: index of the output slot of each entry along `dim`
        dim_size: size of the dimension after reduction
        dim: the dimension to reduce

    Returns:
        reduced input
    """
    shape = list(x.shape)
    shape[dim] = dim_size
    tmp = torch.zeros(shape, dtype=x.dtype, device=x.device)
    return tmp.index_add(dim, idx_i, x)


def sparse_coupling(lmax: int, seed: int = 0):
    """Sparse coupling coefficients C[s1, s2 -> s] with s = (l, m) flattened to (lmax + 1) ** 2 slots."""
    g = torch.Generator().manual_seed(seed)
    n = (lmax + 1) ** 2
    dense = torch.randn(n, n, n, generator=g)
    dense = dense * (torch.rand(n, n, n, generator=g) < 0.15)
    idx_in_1, idx_in_2, idx_out = dense.nonzero(as_tuple=True)
    return dense[idx_in_1, idx_in_2, idx_out], idx_in_1, idx_in_2, idx_out


class SO3TensorProduct(nn.Module):
    """
    Equivariant product of two sets of SO3 features.

    y_{s,f} = sum_{s1,s2} x1_{s1,f} x2_{s2,f} C_{s1,s2}^{s}
    """

    def __init__(self, lmax: int):
        super().__init__()
        self.lmax = lmax
        cg, idx_in_1, idx_in_2, idx_out = sparse_coupling(lmax)
        self.register_buffer("idx_in_1", idx_in_1, persistent=False)
        self.register_buffer("idx_in_2", idx_in_2, persistent=False)
        self.register_buffer("idx_out", idx_out, persistent=False)
        self.register_buffer("clebsch_gordan", cg, persistent=False)

    def forward(self, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
        """
        Args:
            x1: atom-wise SO3 features, shape: [n_atoms, (l_max+1)^2, n_features]
            x2: atom-wise SO3 features, shape: [n_atoms, (l_max+1)^2, n_features]

        Returns:
            y: product of SO3 features, shape: [n_atoms, (l_max+1)^2, n_features]
        """
        x1 = x1[:, self.idx_in_1, :]
        x2 = x2[:, self.idx_in_2, :]
        y = x1 * x2 * self.clebsch_gordan[None, :, None]
        y = scatter_add(y, self.idx_out, dim_size=(self.lmax + 1) ** 2, dim=1)
        return y


if __name__ == "__main__":
    torch.manual_seed(0)
    lmax, n_atoms, n_features = 2, 5, 8
    product = SO3TensorProduct(lmax)
    x1 = torch.randn(n_atoms, (lmax + 1) ** 2, n_features)
    x2 = torch.randn(n_atoms, (lmax + 1) ** 2, n_features)
    y = product(x1, x2)

    n = (lmax + 1) ** 2
    ref = torch.zeros(n_atoms, n, n_features)
    cg, i1, i2, io = product.clebsch_gordan, product.idx_in_1, product.idx_in_2, product.idx_out
    for a in range(n_atoms):
        for k in range(cg.numel()):
            for f in range(n_features):
                ref[a, io[k], f] += x1[a, i1[k], f] * x2[a, i2[k], f] * cg[k]
    assert y.shape == (n_atoms, n, n_features)
    assert torch.allclose(y, ref, atol=1e-5)
    print("ok")
