from typing import NamedTuple

import torch
import torch.nn as nn


class MolGraph(NamedTuple):
    V: torch.Tensor
    E: torch.Tensor
    edge_index: torch.Tensor
    rev_edge_index: torch.Tensor


def featurize(bonds, n_atoms, generator):
    """Directed graph with both directions of every bond stored next to each other."""
    src, dst = [], []
    for u, v in bonds:
        src += [u, v]
        dst += [v, u]
    n_edges = len(src)
    rev = [i + 1 if i % 2 == 0 else i - 1 for i in range(n_edges)]
    return MolGraph(
        V=torch.randn(n_atoms, 9, generator=generator),
        E=torch.randn(n_edges, 5, generator=generator),
        edge_index=torch.tensor([src, dst]),
        rev_edge_index=torch.tensor(rev),
    )


class BatchMolGraph:
    def __init__(self, mgs):
        Vs, Es, edge_indexes, rev_edge_indexes, batch_indexes = [], [], [], [], []
        offset = 0
        for i, mg in enumerate(mgs):
            Vs.append(mg.V)
            Es.append(mg.E)
            edge_indexes.append(mg.edge_index + offset)
            rev_edge_indexes.append(mg.rev_edge_index + offset)
            batch_indexes.append(torch.full((len(mg.V),), i))
            offset += len(mg.V)
        self.V = torch.cat(Vs)
        self.E = torch.cat(Es)
        self.edge_index = torch.cat(edge_indexes, dim=1)
        self.rev_edge_index = torch.cat(rev_edge_indexes)
        self.batch = torch.cat(batch_indexes)


class BondMessagePassing(nn.Module):
    def __init__(self, d_v=9, d_e=5, d_h=32, depth=3):
        super().__init__()
        self.W_i = nn.Linear(d_v + d_e, d_h, bias=False)
        self.W_h = nn.Linear(d_h, d_h, bias=False)
        self.W_o = nn.Linear(d_v + d_h, d_h)
        self.depth = depth

    def forward(self, bmg):
        n_atoms = bmg.V.shape[0]
        H_0 = self.W_i(torch.cat([bmg.V[bmg.edge_index[0]], bmg.E], dim=1))
        H = H_0.relu()
        for _ in range(1, self.depth):
            M_all = torch.zeros(n_atoms, H.shape[1]).index_add_(0, bmg.edge_index[1], H)
            M = M_all[bmg.edge_index[0]] - H[bmg.rev_edge_index]
            H = (H_0 + self.W_h(M)).relu()
        M_v = torch.zeros(n_atoms, H.shape[1]).index_add_(0, bmg.edge_index[1], H)
        return self.W_o(torch.cat([bmg.V, M_v], dim=1)).relu()


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    ring5 = featurize([(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], 5, g)
    chain4 = featurize([(0, 1), (1, 2), (2, 3)], 4, g)
    ring3 = featurize([(0, 1), (1, 2), (2, 0)], 3, g)
    mp = BondMessagePassing()
    with torch.no_grad():
        batched = mp(BatchMolGraph([ring5, chain4, ring3]))
        single = torch.cat([mp(BatchMolGraph([m])) for m in (ring5, chain4, ring3)])
    for i, name in enumerate(["ring5", "chain4", "ring3"]):
        rows = BatchMolGraph([ring5, chain4, ring3]).batch == i
        diff = (batched[rows] - single[rows]).abs().max().item()
        print(f"{name}: max |batched - alone| = {diff:.4f}")
