import numpy as np
import torch
import torch.nn.functional as F


def load_triplets(rows, entity2id, relation2id, cfg):
    triplets = [(entity2id[h], relation2id[r], entity2id[t]) for h, r, t in rows]
    return np.array(triplets, dtype=cfg["id_dtype"])


def edge_normalization(edge_type, edge_index, num_entity, num_relation):
    one_hot = F.one_hot(edge_type, num_classes=2 * num_relation).to(torch.float)
    deg = torch.zeros(num_entity, 2 * num_relation).index_add_(0, edge_index[0], one_hot)
    index = edge_type + torch.arange(len(edge_index[0])) * (2 * num_relation)
    edge_norm = 1 / deg[edge_index[0]].view(-1)[index]
    return edge_norm


def build_test_graph(num_nodes, num_rels, triplets):
    src, rel, dst = triplets.transpose()

    src = torch.from_numpy(src)
    rel = torch.from_numpy(rel)
    dst = torch.from_numpy(dst)

    src, dst = torch.cat((src, dst)), torch.cat((dst, src))
    rel = torch.cat((rel, rel + num_rels))

    edge_index = torch.stack((src, dst))
    edge_type = rel
    edge_norm = edge_normalization(edge_type, edge_index, num_nodes, num_rels)
    return {"edge_index": edge_index, "edge_type": edge_type, "edge_norm": edge_norm}


def reference_edge_norm(edge_index, edge_type):
    pairs = list(zip(edge_index[0].tolist(), edge_type.tolist()))
    return torch.tensor([1.0 / pairs.count(p) for p in pairs])


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    cfg = {"id_dtype": "int32", "num_entities": 30, "num_relations": 5, "num_triplets": 80}
    entities = [f"/m/{i:04d}" for i in range(cfg["num_entities"])]
    relations = [f"/rel/{i}" for i in range(cfg["num_relations"])]
    heads = rng.integers(len(entities), size=cfg["num_triplets"])
    rels = rng.integers(len(relations), size=cfg["num_triplets"])
    tails = rng.integers(len(entities), size=cfg["num_triplets"])
    rows = [(entities[h], relations[r], entities[t]) for h, r, t in zip(heads, rels, tails)]
    entity2id = {e: i for i, e in enumerate(entities)}
    relation2id = {r: i for i, r in enumerate(relations)}
    triplets = load_triplets(rows, entity2id, relation2id, cfg)

    graph = build_test_graph(len(entity2id), len(relation2id), triplets)
    ref = reference_edge_norm(graph["edge_index"], graph["edge_type"])
    print("edges:", graph["edge_index"].shape[1], "max norm error:", (graph["edge_norm"] - ref).abs().max().item())
