import torch

CFG = {"num_nodes": 12, "num_edges": 20, "num_hops": 3, "seed_node": 0}


def make_graph(cfg, generator):
    src = torch.randint(0, cfg["num_nodes"], (cfg["num_edges"],), generator=generator)
    dst = torch.randint(0, cfg["num_nodes"], (cfg["num_edges"],), generator=generator)
    chain = torch.arange(1, 4)
    src = torch.cat([chain, src])
    dst = torch.cat([chain - 1, dst])
    return torch.stack([src, dst])


def directed_k_hop(seed, num_hops, edge_index, num_nodes):
    src, dst = edge_index
    node_mask = torch.zeros(num_nodes, dtype=torch.bool)
    edge_mask = torch.zeros(src.numel(), dtype=torch.bool)
    frontier = torch.tensor([seed])
    visited = [frontier]
    for _ in range(num_hops):
        node_mask.fill_(False)
        node_mask[frontier] = True
        torch.index_select(node_mask, 0, dst, out=edge_mask)
        frontier = src[edge_mask]
        visited.append(frontier)
    subset = torch.cat(visited).unique()
    return subset, edge_mask


def explain_subgraph(cfg, generator):
    edge_index = make_graph(cfg, generator)
    subset, edge_mask = directed_k_hop(cfg["seed_node"], cfg["num_hops"], edge_index, cfg["num_nodes"])
    return edge_index, subset, edge_index[:, edge_mask]


def reference(edge_index, seed, num_hops):
    pairs = list(zip(edge_index[0].tolist(), edge_index[1].tolist()))
    frontier, nodes, used = {seed}, {seed}, set()
    for _ in range(num_hops):
        nxt = set()
        for e, (s, d) in enumerate(pairs):
            if d in frontier:
                used.add(e)
                nxt.add(s)
        nodes |= nxt
        frontier = nxt
    return sorted(nodes), sorted(used)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(3)
    edge_index, subset, sub_edges = explain_subgraph(CFG, g)
    ref_nodes, ref_edges = reference(edge_index, CFG["seed_node"], CFG["num_hops"])
    print("nodes:", subset.tolist(), "expected:", ref_nodes)
    print("edges kept:", sub_edges.size(1), "expected:", len(ref_edges))
