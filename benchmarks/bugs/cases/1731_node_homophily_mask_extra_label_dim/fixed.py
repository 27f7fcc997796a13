import torch


def scatter_mean(src, index, dim_size):
    total = torch.zeros(dim_size, dtype=src.dtype).index_add_(0, index, src)
    count = torch.zeros(dim_size, dtype=src.dtype).index_add_(0, index, torch.ones_like(src))
    return total / count.clamp(min=1)


def homophily(edge_index, y, method="edge"):
    row, col = edge_index
    if method == "edge":
        return int((y[row] == y[col]).sum()) / row.size(0)
    else:
        out = torch.zeros(row.size(0), dtype=torch.float)
        out[(y[row] == y[col]).squeeze()] = 1.0
        out = scatter_mean(out, col, dim_size=y.size(0))
        return float(out.mean())


def load_graph(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    edge_index = torch.randint(0, cfg["num_nodes"], (2, cfg["num_edges"]), generator=g)
    labels = torch.randint(0, cfg["num_classes"], (cfg["num_nodes"],), generator=g)
    y = labels.view(-1, cfg["label_cols"])
    return edge_index, y


if __name__ == "__main__":
    cfg = {"seed": 0, "num_nodes": 12, "num_edges": 40, "num_classes": 3, "label_cols": 1}
    edge_index, y = load_graph(cfg)
    h_node = homophily(edge_index, y, method="node")

    per_node = []
    for v in range(cfg["num_nodes"]):
        incoming = [e for e in range(cfg["num_edges"]) if edge_index[1, e].item() == v]
        same = [1.0 if y[edge_index[0, e]].item() == y[v].item() else 0.0 for e in incoming]
        per_node.append(sum(same) / len(same) if same else 0.0)
    assert abs(h_node - sum(per_node) / len(per_node)) < 1e-6, (h_node, per_node)
    print("ok")
