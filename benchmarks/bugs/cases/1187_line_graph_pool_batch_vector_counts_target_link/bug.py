import torch
from jaxtyping import Float, Int


def line_graph_features(edges: list, target: tuple, node_emb: Float[torch.Tensor, "n d"]) -> Float[torch.Tensor, "m two_d"]:
    kept = [(u, v) for (u, v) in edges if {u, v} != set(target)]
    return torch.stack([torch.cat([node_emb[u] + node_emb[v], node_emb[u] * node_emb[v]]) for u, v in kept])


def batch_vector(samples: list) -> Int[torch.Tensor, "total"]:
    return torch.cat([torch.full((len(s["edges"]),), i, dtype=torch.long) for i, s in enumerate(samples)])


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
    print(encode_batch(samples, node_emb))
