from dataclasses import InitVar, dataclass, field
from typing import Sequence

import numpy as np
import torch
from torch import Tensor, nn


@dataclass
class MolGraph:
    """A molecular graph with directed bonds.

    Attributes
    ----------
    V : np.ndarray
        an array of shape ``V x d_v`` containing the atom features
    E : np.ndarray
        an array of shape ``E x d_e`` containing the bond features
    edge_index : np.ndarray
        an array of shape ``2 x E`` containing the edges of the graph in COO format
    rev_edge_index : np.ndarray
        an array of shape ``E`` that maps from an edge index to the index of the
        reverse edge in ``edge_index``
    """

    V: np.ndarray
    E: np.ndarray
    edge_index: np.ndarray
    rev_edge_index: np.ndarray


def featurize(atom_types: list[int], bonds: list[tuple[int, int, int]], d_v: int = 6, d_e: int = 4) -> MolGraph:
    V = np.eye(d_v, dtype=np.float32)[atom_types]
    E, src, dst, rev = [], [], [], []
    for u, v, order in bonds:
        e = np.eye(d_e, dtype=np.float32)[order]
        # bond u-v becomes the directed pair (u->v, v->u) at positions i, i + 1
        i = len(src)
        src += [u, v]
        dst += [v, u]
        E += [e, e]
        rev += [i + 1, i]
    return MolGraph(V, np.stack(E), np.array([src, dst]), np.array(rev))


@dataclass(repr=False, eq=False)
class BatchMolGraph:
    """A collated batch of :class:`MolGraph` s.

    Attributes
    ----------
    V : Tensor
        the atom feature matrix, ``sum(V_i) x d_v``
    E : Tensor
        the bond feature matrix, ``sum(E_i) x d_e``
    edge_index : Tensor
        ``2 x sum(E_i)`` COO edges into the batched atom rows
    rev_edge_index : Tensor
        ``sum(E_i)``, the row of the reverse of each directed bond
    batch : Tensor
        ``sum(V_i)``, the molecule each atom belongs to
    """

    mgs: InitVar[Sequence[MolGraph]]
    V: Tensor = field(init=False)
    E: Tensor = field(init=False)
    edge_index: Tensor = field(init=False)
    rev_edge_index: Tensor = field(init=False)
    batch: Tensor = field(init=False)

    def __post_init__(self, mgs: Sequence[MolGraph]):
        self.size = len(mgs)
        Vs, Es, edge_indexes, rev_edge_indexes, batch_indexes = [], [], [], [], []
        num_nodes = 0
        num_edges = 0
        for i, mg in enumerate(mgs):
            Vs.append(mg.V)
            Es.append(mg.E)
            edge_indexes.append(mg.edge_index + num_nodes)
            rev_edge_indexes.append(mg.rev_edge_index + num_edges)
            batch_indexes.append([i] * len(mg.V))
            num_nodes += mg.V.shape[0]
            num_edges += mg.edge_index.shape[1]

        self.V = torch.from_numpy(np.concatenate(Vs)).float()
        self.E = torch.from_numpy(np.concatenate(Es)).float()
        self.edge_index = torch.from_numpy(np.hstack(edge_indexes)).long()
        self.rev_edge_index = torch.from_numpy(np.concatenate(rev_edge_indexes)).long()
        self.batch = torch.tensor(np.concatenate(batch_indexes)).long()

    def __len__(self) -> int:
        return self.size


class BondMessagePassing(nn.Module):
    """Directed message passing over bonds (D-MPNN)."""

    def __init__(self, d_v: int = 6, d_e: int = 4, d_h: int = 16, depth: int = 3):
        super().__init__()
        self.W_i = nn.Linear(d_v + d_e, d_h, bias=False)
        self.W_h = nn.Linear(d_h, d_h, bias=False)
        self.W_o = nn.Linear(d_v + d_h, d_h)
        self.depth = depth
        self.tau = nn.ReLU()

    def message(self, H: Tensor, bmg: BatchMolGraph) -> Tensor:
        index_torch = bmg.edge_index[1].unsqueeze(1).repeat(1, H.shape[1])
        M_all = torch.zeros(len(bmg.V), H.shape[1], dtype=H.dtype).scatter_reduce_(
            0, index_torch, H, reduce="sum", include_self=False
        )[bmg.edge_index[0]]
        M_rev = H[bmg.rev_edge_index]
        return M_all - M_rev

    def forward(self, bmg: BatchMolGraph) -> Tensor:
        H_0 = self.W_i(torch.cat([bmg.V[bmg.edge_index[0]], bmg.E], dim=1))
        H = self.tau(H_0)
        for _ in range(1, self.depth):
            M = self.message(H, bmg)
            H = self.tau(H_0 + self.W_h(M))

        index_torch = bmg.edge_index[1].unsqueeze(1).repeat(1, H.shape[1])
        M = torch.zeros(len(bmg.V), H.shape[1], dtype=H.dtype).scatter_reduce_(
            0, index_torch, H, reduce="sum", include_self=False
        )
        H_v = self.tau(self.W_o(torch.cat([bmg.V, M], dim=1)))
        fp = torch.zeros(len(bmg), H_v.shape[1]).index_add_(0, bmg.batch, H_v)
        return fp


def reference_fingerprint(mpnn: BondMessagePassing, mg: MolGraph) -> Tensor:
    V = torch.from_numpy(mg.V)
    E = torch.from_numpy(mg.E)
    src, dst = mg.edge_index.tolist()
    n_e = len(src)
    H_0 = [mpnn.W_i(torch.cat([V[src[e]], E[e]])) for e in range(n_e)]
    H = [mpnn.tau(h) for h in H_0]
    for _ in range(1, mpnn.depth):
        new_H = []
        for e in range(n_e):
            m = torch.zeros(H[0].shape[0])
            for k in range(n_e):
                # messages from bonds entering src[e], except the reverse bond
                if dst[k] == src[e] and not (src[k] == dst[e] and dst[k] == src[e]):
                    m = m + H[k]
            new_H.append(mpnn.tau(H_0[e] + mpnn.W_h(m)))
        H = new_H
    fp = torch.zeros(mpnn.W_o.out_features)
    for v in range(V.shape[0]):
        m = torch.zeros(H[0].shape[0])
        for k in range(n_e):
            if dst[k] == v:
                m = m + H[k]
        fp = fp + mpnn.tau(mpnn.W_o(torch.cat([V[v], m])))
    return fp


if __name__ == "__main__":
    torch.manual_seed(0)
    molecules = [
        ([0, 0, 2], [(0, 1, 0), (1, 2, 0)]),                        # ethanol-like chain
        ([0, 0, 0, 0, 0, 0], [(i, (i + 1) % 6, 3) for i in range(6)]),  # aromatic ring
        ([0, 1, 0, 3], [(0, 1, 0), (1, 2, 1), (2, 3, 0)]),
    ]
    mgs = [featurize(a, b) for a, b in molecules]
    mpnn = BondMessagePassing()
    with torch.no_grad():
        fp_batch = mpnn(BatchMolGraph(mgs))
        ref = torch.stack([reference_fingerprint(mpnn, mg) for mg in mgs])
    assert torch.allclose(fp_batch, ref, atol=1e-5), (fp_batch - ref).abs().max()
    print("ok")
