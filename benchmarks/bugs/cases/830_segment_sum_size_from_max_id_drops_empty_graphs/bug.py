import torch

SETTINGS = {"cutoff": 1.2, "zbl_scale": 0.3}


def segment_sum(values, segment_ids, num_segments=None):
    if num_segments is None:
        num_segments = int(segment_ids.max()) + 1
    out = torch.zeros(num_segments, dtype=values.dtype)
    return out.scatter_add_(0, segment_ids, values)


def aggregate_edges(edge_values, n_edge):
    graph_of_edge = torch.repeat_interleave(torch.arange(len(n_edge)), n_edge)
    return segment_sum(edge_values, graph_of_edge)


def pair_repulsion(batch, settings):
    src, dst = batch["senders"], batch["receivers"]
    dist = (batch["positions"][src] - batch["positions"][dst]).norm(dim=-1)
    envelope = (1 - dist / settings["cutoff"]).clamp(min=0) ** 2
    per_edge = settings["zbl_scale"] * envelope / dist.clamp(min=1e-3)
    return aggregate_edges(per_edge, batch["n_edge"])


def total_energy(batch, settings):
    node_energy = torch.tensor(batch["node_energy"])
    per_graph = segment_sum(node_energy, batch["node_graph"], len(batch["n_node"]))
    return per_graph + pair_repulsion(batch, settings)


def make_batch():
    # two molecules with bonds inside the cutoff, then two isolated atoms
    positions = torch.tensor([[0.0, 0, 0], [0.9, 0, 0], [0, 0, 0], [0, 1.0, 0], [5.0, 5, 5], [9.0, 9, 9]])
    return {
        "positions": positions,
        "senders": torch.tensor([0, 1, 2, 3]),
        "receivers": torch.tensor([1, 0, 3, 2]),
        "n_node": torch.tensor([2, 2, 1, 1]),
        "n_edge": torch.tensor([2, 2, 0, 0]),
        "node_graph": torch.tensor([0, 0, 1, 1, 2, 3]),
        "node_energy": [-1.0, -1.1, -0.7, -0.9, -0.2, -0.3],
    }


if __name__ == "__main__":
    print("energies:", total_energy(make_batch(), SETTINGS).tolist())
