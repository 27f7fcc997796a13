import torch
import torch.nn.functional as F


def take(x, indices, axis=0):
    """Select `indices` along `axis` (backend-agnostic helper)."""
    axis = axis % x.dim()
    return x[(slice(None),) * axis + (indices,)]


def sort_keys_by_length(keys, lengths):
    perm = torch.argsort(lengths, descending=True)
    return keys[perm], perm


def retrieval_recall_at_1(queries, keys_sorted, perm):
    sim_sorted = F.normalize(queries, dim=-1) @ F.normalize(keys_sorted, dim=-1).T
    inv_perm = torch.argsort(perm)
    sim = take(sim_sorted, inv_perm, axis=-1)
    hits = sim.argmax(dim=-1) == torch.arange(queries.shape[0])
    return hits.float().mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    queries = torch.randn(8, 16)
    keys = queries + 0.05 * torch.randn(8, 16)
    lengths = torch.randint(3, 40, (8,))
    keys_sorted, perm = sort_keys_by_length(keys, lengths)
    hits = 0
    for i in range(8):
        best, best_j = -2.0, -1
        for j in range(8):
            s = F.cosine_similarity(queries[i], keys[j], dim=0).item()
            if s > best:
                best, best_j = s, j
        hits += int(best_j == i)
    assert abs(retrieval_recall_at_1(queries, keys_sorted, perm) - hits / 8) < 1e-6
    x = torch.arange(12).view(3, 4)
    assert take(x, torch.tensor([3, 0]), axis=-1).tolist() == [[r[3], r[0]] for r in x.tolist()]
    print("ok")
