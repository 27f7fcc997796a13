import torch


def sparse_correspondence(h_s, h_t, num_candidates):
    """Keep the top candidates of every source node.

    Args:
        h_s (Tensor): source node embeddings, shape (N_s, C).
        h_t (Tensor): target node embeddings, shape (N_t, C).
        num_candidates (int): candidates kept per source node (K).

    Returns:
        (LongTensor, Tensor): candidate target ids S_idx and their softmax
        scores S_val, both of shape (N_s, K).
    """
    sim = h_s @ h_t.t()
    S_idx = sim.topk(num_candidates, dim=-1).indices
    S_idx = S_idx[:, torch.randperm(num_candidates)]  # candidate lists are unordered
    S_val = sim.gather(-1, S_idx).softmax(dim=-1)
    return S_idx, S_val


def hits_at(k, S_idx, S_val, y):
    """Fraction of ground-truth pairs whose target is among the top-k candidates.

    Args:
        k (int): number of top-ranked candidates to consider.
        S_idx (LongTensor): candidate target ids, shape (N_s, K), K >= k.
        S_val (Tensor): candidate scores, shape (N_s, K).
        y (LongTensor): ground-truth correspondences, shape (2, M).

    Returns:
        float: hits@k.
    """
    perm = S_val[y[0]].argsort(dim=-1, descending=True)[:, :k]
    pred = torch.gather(S_idx[y[0]], -1, perm)
    correct = (pred == y[1].view(-1, 1)).sum().item()
    return correct / y.size(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    h_t = torch.randn(30, 16)
    perm_nodes = torch.randperm(30)[:20]
    h_s = h_t[perm_nodes] + 0.8 * torch.randn(20, 16)
    S_idx, S_val = sparse_correspondence(h_s, h_t, num_candidates=8)
    y = torch.stack([torch.arange(20), perm_nodes])
    for k in (1, 3, 8):
        hits = 0
        for m in range(20):
            s, t = y[0, m].item(), y[1, m].item()
            ranked = sorted(range(8), key=lambda j: -S_val[s, j].item())[:k]
            hits += int(any(S_idx[s, j].item() == t for j in ranked))
        assert abs(hits_at(k, S_idx, S_val, y) - hits / 20) < 1e-9, (k, hits)
    print("ok")
