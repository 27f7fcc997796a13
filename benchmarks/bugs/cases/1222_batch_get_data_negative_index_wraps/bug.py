from dataclasses import dataclass

import torch


@dataclass
class AtomsGraph:
    atomic_numbers: torch.Tensor  # (n_atoms,)
    positions: torch.Tensor       # (n_atoms, 3)
    energy: torch.Tensor          # () total energy of the system


class GraphBatch:
    """Concatenation of several atomic graphs.

    Attributes:
        atomic_numbers: (N,) node-level, all graphs concatenated.
        positions: (N, 3) node-level.
        energies: (G,) system-level, one entry per graph.
        ptr: (G + 1,) node offsets, graph g owns rows ptr[g]:ptr[g + 1].
    """

    def __init__(self, graphs):
        self.atomic_numbers = torch.cat([g.atomic_numbers for g in graphs])
        self.positions = torch.cat([g.positions for g in graphs])
        self.energies = torch.stack([g.energy for g in graphs])
        sizes = torch.tensor([len(g.atomic_numbers) for g in graphs])
        self.ptr = torch.cat([torch.zeros(1, dtype=torch.long), sizes.cumsum(0)])

    @property
    def num_graphs(self):
        return self.energies.shape[0]

    def get_data(self, idx: int) -> AtomsGraph:
        """Return graph ``idx``; negative values count from the end."""
        if idx < 0:
            idx = self.num_graphs + idx
        start, end = self.ptr[idx], self.ptr[idx + 1]
        energy = self.energies[torch.tensor(idx)]
        return AtomsGraph(self.atomic_numbers[start:end], self.positions[start:end], energy)


def build_batch():
    argon = AtomsGraph(torch.tensor([18]), torch.zeros(1, 3), torch.tensor(-0.1))
    h2 = AtomsGraph(torch.tensor([1, 1]), torch.randn(2, 3), torch.tensor(-31.7))
    o2 = AtomsGraph(torch.tensor([8, 8]), torch.randn(2, 3), torch.tensor(-428.3))
    return GraphBatch([argon, h2, o2])


if __name__ == "__main__":
    batch = build_batch()
    d = batch.get_data(-5)  # only 3 graphs in the batch
    print("atomic numbers:", d.atomic_numbers.tolist(), "energy:", d.energy.item())
