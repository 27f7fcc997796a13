from typing import Callable, Dict, List, Optional, Union

import numpy as np
import torch

EDGE_INDEX_KEY = "edge_index"
POSITIONS_KEY = "pos"
BATCH_KEY = "batch"
_NODE_FIELDS = {POSITIONS_KEY, BATCH_KEY}


def neighbor_list(pos, r_max):
    """Directed edges between atoms closer than ``r_max``.

    Args:
        pos: (num_atoms, 3) positions of one frame
    Returns:
        edge_index: (2, num_edges), row 0 the center atom, row 1 its neighbor
    """
    dist = torch.cdist(pos, pos)
    adj = (dist < r_max) & ~torch.eye(len(pos), dtype=torch.bool)
    return adj.nonzero().t()


class AtomicInMemoryDataset:
    """Frames stored as one batched graph.

    Attributes:
        data: dict with ``pos`` (total_atoms, 3), ``batch`` (total_atoms,) the frame of every
            atom and ``edge_index`` (2, total_edges) with globally offset atom indices
    """

    def __init__(self, frames: List[torch.Tensor], r_max: float):
        pos, batch, edges, offset = [], [], [], 0
        for i, frame in enumerate(frames):
            pos.append(frame)
            batch.append(torch.full((len(frame),), i, dtype=torch.long))
            edges.append(neighbor_list(frame, r_max) + offset)
            offset += len(frame)
        self.data = {POSITIONS_KEY: torch.cat(pos), BATCH_KEY: torch.cat(batch),
                     EDGE_INDEX_KEY: torch.cat(edges, dim=1)}
        self.num_graphs = len(frames)

    def statistics(self, fields: List[Union[str, Callable]], modes: List[str], stride: int = 1,
                   unbiased: bool = True) -> List[tuple]:
        """Compute the statistics of ``fields`` in the dataset.

        A callable field is called with the (selected) data dict and must return
        ``(arr, "node")`` with one entry per selected atom, i.e. ``arr`` of shape
        (num_nodes,) or (num_nodes, k), or ``(arr, "graph")`` with one entry per frame.
        """
        graph_selector = torch.arange(0, self.num_graphs, stride)
        num_graphs = len(graph_selector)
        node_selector = torch.as_tensor(np.isin(self.data[BATCH_KEY].numpy(), graph_selector.numpy()))
        num_nodes = int(node_selector.sum())

        edge_index = self.data[EDGE_INDEX_KEY]
        edge_selector = node_selector[edge_index[0]] & node_selector[edge_index[1]]
        data_transformed = {k: v[node_selector] for k, v in self.data.items() if k in _NODE_FIELDS}
        data_transformed[EDGE_INDEX_KEY] = edge_index[:, edge_selector]

        out = []
        for ifield, field in enumerate(fields):
            arr, arr_is_per = field(data_transformed)
            arr = arr.to(torch.get_default_dtype())
            if arr_is_per == "node":
                arr = arr.view(num_nodes, -1)
            elif arr_is_per == "graph":
                arr = arr.view(num_graphs, -1)

            if modes[ifield] == "mean_std":
                out.append((torch.mean(arr, dim=0), torch.std(arr, dim=0, unbiased=unbiased)))
            elif modes[ifield] == "rms":
                out.append((torch.sqrt(torch.mean(arr * arr)),))
            else:
                raise NotImplementedError(modes[ifield])
        return out


def add_avg_num_neighbors(config: Dict, dataset: Optional[AtomicInMemoryDataset] = None) -> Optional[float]:
    """Fill ``config["avg_num_neighbors"]`` from the dataset when it is ``"auto"``.

    The value is the mean over atoms of the number of edges leaving each atom.
    """
    ann = config.get("avg_num_neighbors", None)
    if ann == "auto":
        ann = dataset.statistics(
            fields=[
                lambda data: (
                    torch.bincount(
                        data[EDGE_INDEX_KEY][0],
                        # make sure we have the right number of counts even if some nodes have no neighbors
                        minlength=len(data[POSITIONS_KEY]),
                    ),
                    "node",
                )
            ],
            modes=["mean_std"],
            stride=config.get("dataset_statistics_stride", 1),
        )[0][0].item()
    if ann is not None:
        ann = float(ann)
    config["avg_num_neighbors"] = ann
    return ann


if __name__ == "__main__":
    torch.manual_seed(0)
    water = torch.tensor([[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]])
    frames = []
    for k in range(4):
        ion = torch.tensor([[6.0 + k, 0.0, 0.0]])          # a solvated ion beyond the cutoff
        frames.append(torch.cat([water + 0.02 * torch.randn(3, 3), ion]))
    dataset = AtomicInMemoryDataset(frames, r_max=2.0)
    config = {"avg_num_neighbors": "auto", "r_max": 2.0}
    ann = add_avg_num_neighbors(config, dataset)

    # reference: count the neighbours of every atom of every frame with plain loops
    counts = []
    for frame in frames:
        for i in range(len(frame)):
            counts.append(sum(1 for j in range(len(frame))
                              if j != i and (frame[i] - frame[j]).norm().item() < 2.0))
    assert abs(ann - sum(counts) / len(counts)) < 1e-6
    assert config["avg_num_neighbors"] == ann
    print("ok")
