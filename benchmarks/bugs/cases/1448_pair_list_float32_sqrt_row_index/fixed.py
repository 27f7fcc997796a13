import math

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
        k = torch.arange(num_pairs, dtype=torch.int64)
        rows = torch.floor((torch.sqrt(8 * k.double() + 1) + 1) / 2).long()
        # the float estimate can be one off near row boundaries: correct it exactly
        rows -= (rows * (rows - 1) // 2 > k).long()
        rows += ((rows + 1) * rows // 2 <= k).long()
        cols = k - rows * (rows - 1) // 2
        return rows, cols

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


def reference_pairs(pos, cutoff, ks):
    out = []
    p = pos.tolist()
    for k in ks:
        r = (1 + math.isqrt(8 * k + 1)) // 2
        c = k - r * (r - 1) // 2
        d = math.dist(p[r], p[c])
        out.append((r, c, d))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = AllPairsDistance(cutoff_upper=5.0)

    small = random_protein(40, box=8.0)
    edge_index, dist = layer(small)
    ref = [(r, c) for r in range(40) for c in range(r) if math.dist(small[r].tolist(), small[c].tolist()) < 5.0]
    assert sorted(map(tuple, edge_index.t().tolist())) == sorted(ref)

    protein = random_protein(6000)
    rows, cols = layer.pair_indices(protein.size(0))
    assert rows.numel() == 6000 * 5999 // 2
    tri = torch.tril_indices(6000, 6000, offset=-1)
    assert torch.equal(rows, tri[0]) and torch.equal(cols, tri[1])
    g = torch.Generator().manual_seed(1)
    ks = torch.randint(0, rows.numel(), (3000,), generator=g).tolist()
    ks += list(range(rows.numel() - 50, rows.numel()))
    vec = protein.index_select(0, rows) - protein.index_select(0, cols)
    dist_all = vec.norm(dim=-1)
    for k, (r, c, d) in zip(ks, reference_pairs(protein, 5.0, ks)):
        assert rows[k].item() == r and cols[k].item() == c, (k, r, c)
        assert abs(dist_all[k].item() - d) < 1e-4
    edge_index, dist = layer(protein)
    assert int(edge_index.min()) >= 0 and int(edge_index.max()) < 6000
    print("ok")
