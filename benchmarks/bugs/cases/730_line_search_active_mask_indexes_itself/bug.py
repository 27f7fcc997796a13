import torch
from jaxtyping import Bool, Float


def quadratic_loss(x: Float[torch.Tensor, "n d"]) -> Float[torch.Tensor, "n"]:
    return ((x - 1.0) ** 2).sum(dim=1) + 0.1 * (x ** 4).sum(dim=1)


def line_search(
    x: Float[torch.Tensor, "batch d"],
    grad: Float[torch.Tensor, "batch d"],
    alphas: Float[torch.Tensor, "batch"],
    beta: float = 0.5,
    c: float = 1e-4,
    max_iter: int = 20,
) -> Float[torch.Tensor, "batch"]:
    """Armijo backtracking, one step size per sample; finished samples stop shrinking."""
    alphas = alphas.clone()
    base: Float[torch.Tensor, "batch"] = quadratic_loss(x)
    slope: Float[torch.Tensor, "batch"] = (grad * grad).sum(dim=1)
    active: Bool[torch.Tensor, "batch"] = torch.ones_like(alphas, dtype=torch.bool)
    for _ in range(max_iter):
        trial = x[active] - alphas[active].unsqueeze(1) * grad[active]
        losses = quadratic_loss(trial)
        active[active] = losses > base[active] - c * alphas[active] * slope[active]
        alphas[active] = alphas[active] * beta
        if not active.any():
            break
    return alphas


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(6, 3) * 2
    x.requires_grad_(True)
    quadratic_loss(x).sum().backward()
    steps = line_search(x.detach(), x.grad, alphas=torch.full((6,), 4.0))
    print(steps)
