import numpy as np
import torch


def collect_connections(genome, node_order):
    """Turn enabled genome connections into (row, col, weight) triples."""
    key_to_pos = {k: i for i, k in enumerate(node_order)}
    triples = []
    for (src, dst), conn in genome["connections"].items():
        if conn["enabled"]:
            triples.append((key_to_pos[dst], key_to_pos[src], conn["weight"]))
    return triples


def dense_from_coo(shape, triples, dtype=torch.float64):
    mat = torch.zeros(shape, dtype=dtype)
    if not triples:
        return mat
    table = np.array(triples)
    rows = table[:, 0].astype(np.int64)
    cols = table[:, 1].astype(np.int64)
    weights = table[:, 2]
    mat[torch.tensor(rows), torch.tensor(cols)] = torch.tensor(weights, dtype=dtype)
    return mat


def activate(genome, node_order, inputs, steps=2):
    n = len(node_order)
    w = dense_from_coo((n, n), collect_connections(genome, node_order))
    state = torch.zeros(inputs.size(0), n, dtype=torch.float64)
    n_in = genome["num_inputs"]
    for _ in range(steps):
        state[:, :n_in] = inputs
        state = torch.tanh(state @ w.t())
    return state[:, n_in:]


def make_genome():
    return {
        "num_inputs": 2,
        "connections": {
            (-1, 0): {"weight": 0.5, "enabled": True},
            (-2, 0): {"weight": -1.2, "enabled": True},
            (-1, 1): {"weight": 0.8, "enabled": True},
            (0, 1): {"weight": 1.5, "enabled": True},
            (1, 0): {"weight": 0.3, "enabled": False},
        },
    }


if __name__ == "__main__":
    genome = make_genome()
    order = [-1, -2, 0, 1]
    x = torch.tensor([[0.0, 1.0], [1.0, 1.0]], dtype=torch.float64)
    out = activate(genome, order, x)

    ref_w = [[0.0] * 4 for _ in range(4)]
    pos = {k: i for i, k in enumerate(order)}
    for (src, dst), c in genome["connections"].items():
        if c["enabled"]:
            ref_w[pos[dst]][pos[src]] = c["weight"]
    import math
    for b in range(2):
        st = [0.0] * 4
        for _ in range(2):
            st[0], st[1] = x[b, 0].item(), x[b, 1].item()
            st = [math.tanh(sum(st[j] * ref_w[i][j] for j in range(4))) for i in range(4)]
        for i in range(2):
            assert abs(out[b, i].item() - st[2 + i]) < 1e-12
    print("ok")
