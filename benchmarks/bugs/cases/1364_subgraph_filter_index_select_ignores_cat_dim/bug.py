import math

import torch


def index_select(value, index, dim=0):
    out = None
    if torch.utils.data.get_worker_info() is not None:
        # inside a loader worker: write straight into a fresh buffer
        shape = list(value.shape)
        shape[dim] = len(index)
        out = value.new_empty(math.prod(shape)).reshape(shape)
    return torch.index_select(value, 0, index, out=out)


class NodeStore(dict):
    cat_dims = {"x": 0, "y": 0, "history": -1}

    def cat_dim(self, key):
        return self.cat_dims.get(key, 0)

    def is_node_attr(self, key):
        return key in self.cat_dims


def filter_node_store_(store, out_store, index):
    for key, value in store.items():
        if key == "num_nodes":
            out_store.num_nodes = index.numel()
        elif store.is_node_attr(key):
            dim = store.cat_dim(key)
            out_store[key] = index_select(value, index, dim=dim)
    return out_store


def build_store(config):
    g = torch.Generator().manual_seed(config["seed"])
    store = NodeStore()
    store["x"] = torch.randn(config["num_nodes"], config["channels"], generator=g)
    store["y"] = torch.randint(0, config["num_classes"], (config["num_nodes"],), generator=g)
    store["history"] = torch.randn(config["window"], config["num_nodes"], generator=g)
    return store


if __name__ == "__main__":
    config = {"seed": 0, "num_nodes": 40, "channels": 16, "num_classes": 3, "window": 12}
    store = build_store(config)
    sampled = torch.tensor([3, 17, 25, 39])
    sub = filter_node_store_(store, NodeStore(), sampled)
    print({k: tuple(v.shape) for k, v in sub.items()})
