import torch
from jaxtyping import Float, Int


def line_graph_features(edges: list, target: tuple, node_emb: Float[torch.Tensor, "n d"]) -> Float[torch.Tensor, "m two_d"]:
    kept = [(u, v) for (u, v) in edges if {u, v} != set(target)]
    return torch.stack([torch.cat([node_emb[u] + node_emb[v], node_emb[u] * node_emb[v]]) for u, v in kept])


def batch_vector(samples: list) -> Int[torch.Tensor, "total"]:
    counts = [sum(1 for (u, v) in s["edges"] if {u, v} != set(s["target"])) for s in samples]
    return torch.cat([torch.full((c,), i, dtype=torch.long) for i, c in enumerate(counts)])


def global_add_pool(x: Float[torch.Tensor, "total f"], batch: Int[torch.Tensor, "total"],
                    num_graphs: int) -> Float[torch.Tensor, "g f"]:
    out = x.new_zeros(num_graphs, x.shape[1])
    index = batch.unsqueeze(-1).expand(-1, x.shape[1])
    return out.scatter_add_(0, index, x)


def encode_batch(samples: list, node_emb: Float[torch.Tensor, "n d"]) -> Float[torch.Tensor, "g two_d"]:
    feats = torch.cat([line_graph_features(s["edges"], s["target"], node_emb) for s in samples])
    return global_add_pool(feats, batch_vector(samples), len(samples))


if __name__ == "__main__":
    torch.manual_seed(0)
    node_emb = torch.randn(10, 3)
    samples = [
        {"edges": [(0, 1), (1, 2), (2, 3), (0, 3)], "target": (0, 1)},
        {"edges": [(4, 5), (5, 6), (6, 4), (6, 7), (7, 8)], "target": (6, 7)},
        {"edges": [(2, 9), (9, 8), (8, 2)], "target": (2, 9)},
    ]
    got = encode_batch(samples, node_emb)
    for g, s in enumerate(samples):
        acc = torch.zeros(6)
        for u, v in s["edges"]:
            if {u, v} == set(s["target"]):
                continue
            acc = acc + torch.cat([node_emb[u] + node_emb[v], node_emb[u] * node_emb[v]])
        assert torch.allclose(got[g], acc, atol=1e-5)
    print("ok")
