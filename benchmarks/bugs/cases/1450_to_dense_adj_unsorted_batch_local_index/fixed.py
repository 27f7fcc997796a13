import torch
from jaxtyping import Float, Int
from torch import Tensor


def to_dense_adj(
    edge_index: Int[Tensor, "2 E"],
    batch: Int[Tensor, " N"],
    edge_attr: Float[Tensor, " E"],
) -> Float[Tensor, "B M M"]:
    batch_size = int(batch.max()) + 1
    num_nodes = torch.zeros(batch_size, dtype=torch.long).scatter_add_(0, batch, torch.ones_like(batch))
    cum_nodes = torch.cat([num_nodes.new_zeros(1), num_nodes.cumsum(0)])
    max_num_nodes = int(num_nodes.max())

    # position of every node inside its own graph; nodes need not be grouped by graph
    perm = torch.argsort(batch, stable=True)
    local = torch.empty_like(batch)
    local[perm] = torch.arange(batch.numel()) - cum_nodes[batch[perm]]

    graph = batch[edge_index[0]]
    local_src = local[edge_index[0]]
    local_dst = local[edge_index[1]]

    flat = (graph * max_num_nodes + local_src) * max_num_nodes + local_dst
    adj = edge_attr.new_zeros(batch_size * max_num_nodes * max_num_nodes)
    adj.scatter_add_(0, flat, edge_attr)
    return adj.view(batch_size, max_num_nodes, max_num_nodes)


def merge_scenes(scenes: list[dict]) -> tuple[Tensor, Tensor, Tensor]:
    """Concatenate two scene graphs node-interleaved (the order the tracker emits objects)."""
    order = []
    for i in range(max(s["num_nodes"] for s in scenes)):
        for g, s in enumerate(scenes):
            if i < s["num_nodes"]:
                order.append((g, i))
    global_id = {gi: n for n, gi in enumerate(order)}
    batch = torch.tensor([g for g, _ in order])
    src, dst, w = [], [], []
    for g, s in enumerate(scenes):
        for (u, v), a in zip(s["edges"], s["weights"]):
            src.append(global_id[(g, u)])
            dst.append(global_id[(g, v)])
            w.append(a)
    return torch.tensor([src, dst]), batch, torch.tensor(w)


if __name__ == "__main__":
    scenes = [
        {"num_nodes": 3, "edges": [(0, 1), (1, 2), (2, 0)], "weights": [1.0, 2.0, 3.0]},
        {"num_nodes": 4, "edges": [(0, 3), (3, 1), (1, 2), (2, 0)], "weights": [4.0, 5.0, 6.0, 7.0]},
    ]
    edge_index, batch, w = merge_scenes(scenes)
    adj = to_dense_adj(edge_index, batch, w)
    ref = torch.zeros_like(adj)
    for g, s in enumerate(scenes):
        for (u, v), a in zip(s["edges"], s["weights"]):
            ref[g, u, v] += a
    assert torch.equal(adj, ref)

    # same graphs, grouped order, must give the same result
    nodes = sorted(range(batch.numel()), key=lambda n: batch[n].item())
    remap = torch.empty(batch.numel(), dtype=torch.long)
    remap[torch.tensor(nodes)] = torch.arange(batch.numel())
    adj_sorted = to_dense_adj(remap[edge_index], batch[torch.tensor(nodes)], w)
    assert torch.equal(adj_sorted, ref)
    print("ok")
