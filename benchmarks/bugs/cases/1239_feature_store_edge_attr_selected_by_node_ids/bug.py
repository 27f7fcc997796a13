import torch

SETTINGS = {"num_nodes": 12, "num_edges": 40, "feat_dim": 4, "batch_seeds": [0, 3, 5, 9], "seed": 0}


def make_graph(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    edge_index = torch.randint(0, cfg["num_nodes"], (2, cfg["num_edges"]), generator=g)
    edge_index[1, : cfg["num_nodes"]] = torch.arange(cfg["num_nodes"])  # every node has an in-edge
    store = {
        "x": torch.randn(cfg["num_nodes"], cfg["feat_dim"], generator=g),
        "edge_weight": torch.rand(cfg["num_edges"], 1, generator=g),
    }
    return edge_index, store


def sample_one_neighbor(edge_index, seeds, g):
    node_ids, edge_ids = [], []
    for s in seeds.tolist():
        incoming = (edge_index[1] == s).nonzero().flatten()
        e = incoming[torch.randint(0, incoming.numel(), (1,), generator=g)]
        edge_ids.append(e)
        node_ids.append(edge_index[0, e])
    return torch.cat(node_ids), torch.cat(edge_ids)


def filter_store(store, node_ids, edge_ids):
    out = {}
    for key, value in store.items():
        out[key] = value.index_select(0, node_ids)
    return out


def aggregate(batch):
    return batch["edge_weight"] * batch["x"]


def run(cfg):
    edge_index, store = make_graph(cfg)
    seeds = torch.tensor(cfg["batch_seeds"])
    node_ids, edge_ids = sample_one_neighbor(edge_index, seeds, torch.Generator().manual_seed(1))
    batch = filter_store(store, node_ids, edge_ids)
    return aggregate(batch), store, node_ids, edge_ids


if __name__ == "__main__":
    out, store, node_ids, edge_ids = run(SETTINGS)
    print("sampled edges", edge_ids.tolist(), "neighbor nodes", node_ids.tolist())
    print("weights used", [round(v, 3) for v in (out[:, 0] / store["x"][node_ids, 0]).tolist()])
    print("edge weights", [round(v, 3) for v in store["edge_weight"][edge_ids, 0].tolist()])
