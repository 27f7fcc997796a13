import math

import torch
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor


class AddDiag(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input: Float[Tensor, "batch n n"], diag: Float[Tensor, "1"]) -> Float[Tensor, "batch n n"]:
        if diag.numel() != 1:
            raise RuntimeError("Input must be a single-element tensor")
        val = diag.item()
        diag_mat = input.new_ones(input.size(-2)).diag()
        if input.ndimension() == 3:
            diag_mat = diag_mat.unsqueeze(0).expand_as(input)
        return diag_mat.mul(val).add(input)

    @staticmethod
    def backward(ctx, grad_output: Float[Tensor, "batch n n"]):
        input_grad = grad_output if ctx.needs_input_grad[0] else None
        diag_grad = None
        if ctx.needs_input_grad[1]:
            diag_grad = grad_output.new_zeros(1)
            if grad_output.numel() == 1:
                diag_grad.fill_(grad_output.item())
            elif grad_output.ndimension() == 3:
                batch_indices = grad_output.new_empty(grad_output.size(0), 1).long()
                torch.arange(0, grad_output.size(0), out=batch_indices[:, 0])
                diag_indices = grad_output.new_empty(grad_output.size(1), 1).long()
                torch.arange(0, grad_output.size(1), out=diag_indices[:, 0])
                batch_indices = batch_indices.repeat(1, grad_output.size(1)).view(-1)
                diag_indices = diag_indices.repeat(grad_output.size(0), 1).view(-1)
                vals = grad_output[batch_indices, diag_indices, diag_indices]
                diag_grad.fill_(vals.sum())
            else:
                diag_grad.fill_(grad_output.trace())
        return input_grad, diag_grad


class BatchRBFGP(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros(1))
        self.raw_noise = nn.Parameter(torch.tensor([-2.0]))

    def covar(self, x: Float[Tensor, "batch n d"]) -> Float[Tensor, "batch n n"]:
        lengthscale = nn.functional.softplus(self.raw_lengthscale)
        return torch.exp(-0.5 * torch.cdist(x, x).pow(2) / lengthscale.pow(2))

    def forward(self, x: Float[Tensor, "batch n d"], y: Float[Tensor, "batch n"]) -> Float[Tensor, ""]:
        """Exact marginal log likelihood summed over the batch of independent GPs."""
        noise = nn.functional.softplus(self.raw_noise)
        K = AddDiag.apply(self.covar(x), noise)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(y.unsqueeze(-1), L).squeeze(-1)
        n = y.shape[-1]
        return (-0.5 * (y * alpha).sum(-1) - L.diagonal(dim1=-2, dim2=-1).log().sum(-1) - 0.5 * n * math.log(2 * math.pi)).sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.rand(3, 6, 2)
    y = torch.sin(4 * x[..., 0]) + 0.1 * torch.randn(3, 6)
    gp = BatchRBFGP()
    mll = gp(x, y)
    mll.backward()
    print("mll:", round(mll.item(), 4), "d mll / d raw_noise:", round(gp.raw_noise.grad.item(), 4))
    # plain-loop reference: one GP at a time, noise added with an explicit identity
    ref = BatchRBFGP()
    total = 0.0
    for b in range(3):
        noise = nn.functional.softplus(ref.raw_noise)
        K = ref.covar(x[b : b + 1])[0] + noise * torch.eye(6)
        total = total + torch.distributions.MultivariateNormal(torch.zeros(6), K).log_prob(y[b])
    total.backward()
    assert abs(mll.item() - total.item()) < 1e-4
    assert abs(gp.raw_noise.grad.item() - ref.raw_noise.grad.item()) < 1e-4
    print("ok")
