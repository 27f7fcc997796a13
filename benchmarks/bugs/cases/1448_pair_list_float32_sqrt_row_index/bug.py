import torch
import torch.nn as nn


class AllPairsDistance(nn.Module):
    """Distances between every unordered pair of atoms of one molecule.

    Pairs are enumerated in lower-triangular order without building an N x N
    matrix: pair ``k`` is ``(row, col)`` with ``row > col`` and
    ``k = row * (row - 1) / 2 + col``.

    Args:
        cutoff_upper: pairs farther apart than this are dropped.
    """

    def __init__(self, cutoff_upper: float = 5.0):
        super().__init__()
        self.cutoff_upper = cutoff_upper

    @staticmethod
    def pair_indices(num_atoms: int):
        """
        Args:
            num_atoms: number of atoms N.

        Returns:
            rows, cols: LongTensors of shape (N * (N - 1) / 2,).
        """
        num_pairs = num_atoms * (num_atoms - 1) // 2
        k = torch.arange(num_pairs, dtype=torch.int32)
        rows = (((8 * k + 1).sqrt() + 1) / 2).to(torch.int32)
        cols = k - rows * (rows - 1) // 2
        return rows.long(), cols.long()

    def forward(self, pos: torch.Tensor):
        """
        Args:
            pos: atom positions of shape (N, 3).

        Returns:
            edge_index: LongTensor of shape (2, E), pairs within the cutoff.
            distances: Tensor of shape (E,).
        """
        rows, cols = self.pair_indices(pos.size(0))
        vec = pos.index_select(0, rows) - pos.index_select(0, cols)
        dist = vec.norm(dim=-1)
        keep = dist < self.cutoff_upper
        return torch.stack([rows[keep], cols[keep]]), dist[keep]


def random_protein(num_atoms: int, box: float = 60.0) -> torch.Tensor:
    return torch.rand(num_atoms, 3) * box


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = AllPairsDistance(cutoff_upper=5.0)

    small = random_protein(40, box=8.0)
    edge_index, dist = layer(small)
    print("small molecule:", edge_index.shape[1], "pairs within cutoff")

    protein = random_protein(6000)
    edge_index, dist = layer(protein)
    print("protein:", edge_index.shape[1], "pairs within cutoff")
