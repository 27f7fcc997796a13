"""Review-rating pipeline: hashed bag-of-words with scatter_add_ (repeated tokens accumulate),
1-based star ratings shifted before one_hot, kept ids built as int64, per-row pick with gather,
and a per-user minimum with scatter_reduce(amin, include_self=False)."""
import torch
import torch.nn.functional as F


def bag_of_words(token_ids, mask, num_buckets):
    # token_ids, mask: (B, T) -> (B, K) normalized counts
    buckets = token_ids % num_buckets
    counts = torch.zeros(token_ids.shape[0], num_buckets).scatter_add_(1, buckets, mask)
    return counts / mask.sum(1, keepdim=True)


def rating_targets(stars, num_stars=5, eps=0.1):
    # stars: (B,) values 1..num_stars -> (B, num_stars)
    return F.one_hot(stars - 1, num_classes=num_stars).float() * (1 - eps) + eps / num_stars


def review_nll(logits, stars):
    # logits: (B, S); stars: (B,) 1-based
    logp = logits.log_softmax(-1)
    return -logp.gather(1, (stars - 1).unsqueeze(1)).squeeze(1)          # (B,)


def worst_review_per_user(user_id, nll, num_users):
    # user_id, nll: (B,) -> (U,) lowest loss per user, +inf for users without reviews
    init = torch.full((num_users,), float("inf"))
    return init.scatter_reduce(0, user_id, nll, reduce="amin", include_self=False)


if __name__ == "__main__":
    torch.manual_seed(0)
    tokens, mask = torch.randint(0, 30, (4, 12)), torch.ones(4, 12)
    mask[2, 8:] = 0
    bow = bag_of_words(tokens, mask, 8)
    stars = torch.tensor([5, 1, 3, 5])
    logits = torch.randn(4, 5)
    keep = torch.tensor([i for i in range(4) if stars[i] != 3], dtype=torch.long)
    nll = review_nll(logits, stars).index_select(0, keep)
    users = torch.tensor([0, 0, 2])
    best = worst_review_per_user(users, nll, 4)
    for b in range(4):
        ref = [0.0] * 8
        for t in range(12):
            ref[tokens[b, t].item() % 8] += mask[b, t].item()
        assert torch.allclose(bow[b], torch.tensor(ref) / mask[b].sum(), atol=1e-6)
        tgt = rating_targets(stars)[b]
        assert abs(tgt[stars[b] - 1].item() - 0.92) < 1e-6 and abs(tgt.sum().item() - 1) < 1e-6
    ref_nll = [-logits[i].log_softmax(-1)[stars[i] - 1].item() for i in (0, 1, 3)]
    assert torch.allclose(nll, torch.tensor(ref_nll), atol=1e-6)
    assert abs(best[0].item() - min(ref_nll[:2])) < 1e-6 and abs(best[2].item() - ref_nll[2]) < 1e-6
    assert best[1].item() == float("inf") and best[3].item() == float("inf")
    print("ok")
