import torch
import torch.nn.functional as F


def filtered_tail_ranks(scores, true_tail, known_tails):
    # scores:      [B, E] score of every candidate tail entity
    # true_tail:   [B]    gold tail per query
    # known_tails: [B, K] other true tails of the same (head, relation), padded with the gold tail
    gold = scores.gather(1, true_tail.unsqueeze(1))  # [B, 1]
    filtered = scores.scatter(1, known_tails, float("-inf"))  # same value written: duplicates are harmless
    filtered = filtered.scatter(1, true_tail.unsqueeze(1), gold)  # [B, E]
    return (filtered > gold).sum(dim=1) + 1  # [B]


def per_relation_mrr(ranks, rel, num_relations):
    # ranks: [B], rel: [B] relation id of each query
    rr = 1.0 / ranks.double()
    total = torch.zeros(num_relations, dtype=torch.float64).index_add_(0, rel, rr)
    count = torch.zeros(num_relations, dtype=torch.float64).index_add_(0, rel, torch.ones_like(rr))
    best = torch.full((num_relations,), float("inf"), dtype=torch.float64)
    best = best.scatter_reduce(0, rel, ranks.double(), reduce="amin", include_self=False)
    return total / count.clamp(min=1), best


def top_pairs(scores, k):
    # scores: [B, E]; returns (query row, entity col) of the k best pairs overall
    flat = scores.flatten().topk(k).indices
    return torch.div(flat, scores.size(1), rounding_mode="floor"), flat % scores.size(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, E, K, R = 6, 30, 3, 4
    scores = torch.randn(B, E)
    true_tail = torch.randint(0, E, (B,))
    known = torch.randint(0, E, (B, K))
    known[:, 0] = true_tail
    rel = torch.tensor([0, 1, 1, 3, 0, 1])

    ranks = filtered_tail_ranks(scores, true_tail, known)
    for b in range(B):
        g = scores[b, true_tail[b]].item()
        others = set(known[b].tolist()) - {int(true_tail[b])}
        r = 1 + sum(1 for e in range(E) if e not in others and e != int(true_tail[b]) and scores[b, e].item() > g)
        assert ranks[b].item() == r

    mrr, best = per_relation_mrr(ranks, rel, R)
    for r_id in range(R):
        sel = [b for b in range(B) if int(rel[b]) == r_id]
        exp = sum(1.0 / ranks[b].item() for b in sel) / max(len(sel), 1)
        assert abs(mrr[r_id].item() - exp) < 1e-12
        if sel:
            assert best[r_id].item() == min(ranks[b].item() for b in sel)

    rows, cols = top_pairs(scores, 5)
    vals = sorted((scores[b, e].item() for b in range(B) for e in range(E)), reverse=True)[:5]
    assert [scores[r, c].item() for r, c in zip(rows.tolist(), cols.tolist())] == vals

    onehot = F.one_hot(rel, num_classes=R)
    assert onehot.shape == (B, R) and onehot.sum().item() == B
    print("ok")
