from dataclasses import dataclass

import torch
from jaxtyping import Float, Int
from torch import Tensor


@dataclass
class PotentialConfig:
    cutoff: float = 1.6
    max_pairs: int = 24      # static buffer size so the step can be captured in a CUDA graph
    epsilon: float = 1.0
    sigma: float = 1.0


def neighbor_pairs(pos: Float[Tensor, "atoms 3"], cfg: PotentialConfig) -> tuple[Int[Tensor, "max_pairs"], Int[Tensor, "max_pairs"]]:
    """Directed pairs (i, j), i != j, closer than the cutoff, padded with -1 up to cfg.max_pairs."""
    dist = torch.cdist(pos, pos)
    close = (dist < cfg.cutoff) & ~torch.eye(pos.size(0), dtype=torch.bool)
    i, j = close.nonzero(as_tuple=True)
    recv = torch.full((cfg.max_pairs,), -1, dtype=torch.long)
    send = torch.full((cfg.max_pairs,), -1, dtype=torch.long)
    recv[: i.numel()], send[: j.numel()] = i, j
    return recv, send


def pair_energies(pos: Float[Tensor, "atoms 3"], recv: Int[Tensor, "max_pairs"], send: Int[Tensor, "max_pairs"],
                  cfg: PotentialConfig) -> Float[Tensor, "pairs"]:
    valid = recv >= 0
    r = (pos[recv[valid]] - pos[send[valid]]).norm(dim=-1)
    sr6 = (cfg.sigma / r) ** 6
    return 2.0 * cfg.epsilon * (sr6 * sr6 - sr6)       # half of the pair energy per direction


def atom_energies(e_pair: Float[Tensor, "pairs"], recv: Int[Tensor, "max_pairs"], num_atoms: int) -> Float[Tensor, "atoms"]:
    ghost = torch.where(recv >= 0, recv, torch.full_like(recv, num_atoms))  # padding goes to a ghost atom
    out = e_pair.new_zeros(num_atoms + 1)
    out.scatter_add_(0, ghost, e_pair)
    return out[:num_atoms]


if __name__ == "__main__":
    cfg = PotentialConfig()
    torch.manual_seed(0)
    pos = torch.tensor([[0.0, 0.0, 0.0], [1.1, 0.0, 0.0], [0.0, 1.2, 0.0], [3.0, 3.0, 3.0], [3.0, 4.1, 3.0]])
    recv, send = neighbor_pairs(pos, cfg)
    e = atom_energies(pair_energies(pos, recv, send, cfg), recv, pos.size(0))
    print("per-atom energies:", e.tolist(), "total:", e.sum().item())
