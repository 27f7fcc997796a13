import torch
from jaxtyping import Float, Int
from torch import Tensor


def grid_cells(positions: Float[Tensor, "particles 2"], box: float, n_cells: int) -> Int[Tensor, "particles 2"]:
    cells = torch.floor(positions / box * n_cells).long()
    return cells.clamp(0, n_cells - 1)


def deposit_mass(
    positions: Float[Tensor, "particles 2"], masses: Float[Tensor, "particles"], box: float, n_cells: int
) -> Float[Tensor, "n_cells n_cells"]:
    """Nearest-grid-point deposit of particle masses onto a 2-D density grid."""
    cells = grid_cells(positions, box, n_cells)
    rho = torch.zeros(n_cells, n_cells, dtype=masses.dtype)
    rho.index_put_((cells[:, 0], cells[:, 1]), masses)
    return rho / (box / n_cells) ** 2


def total_mass(rho: Float[Tensor, "n_cells n_cells"], box: float) -> float:
    n = rho.size(0)
    return (rho.sum() * (box / n) ** 2).item()


if __name__ == "__main__":
    torch.manual_seed(0)
    box, n_cells = 1.0, 8
    cluster = 0.5 + 0.05 * torch.randn(300, 2)
    field = torch.rand(100, 2)
    positions = torch.cat([cluster, field]).clamp(0, box - 1e-6)
    masses = torch.full((400,), 0.25)
    rho = deposit_mass(positions, masses, box, n_cells)
    print("deposited mass:", total_mass(rho, box), "particle mass:", masses.sum().item())
    print("peak density:", rho.max().item())
