import torch
import torch.nn.functional as F


def take(x, indices, axis=0):
    """Select `indices` along `axis` (backend-agnostic helper)."""
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
    print("recall@1:", retrieval_recall_at_1(queries, keys_sorted, perm))
