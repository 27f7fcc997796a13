import torch
import torch.nn.functional as F


def route_top2(x, router_w):
    # x: [T, H], router_w: [H, E] -> weights [T, 2], expert_ids [T, 2] (int64)
    probs = (x @ router_w).softmax(dim=-1)
    weights, expert_ids = probs.topk(2, dim=-1)
    return weights / weights.sum(-1, keepdim=True), expert_ids


def combine(x, weights, expert_ids, experts):
    # experts: [E, H, H]; every token is dispatched twice, outputs accumulate per token
    T, H = x.shape
    flat_ids = expert_ids.reshape(-1)                         # [2T]
    token_of = torch.arange(T).repeat_interleave(2)           # [2T]
    y = torch.einsum("nh,nhd->nd", x[token_of], experts[flat_ids])
    y = y * weights.reshape(-1, 1)
    return torch.zeros(T, H).index_add_(0, token_of, y)


def merge_mean(tokens, assign, num_groups):
    # tokens: [B, N, D], assign: [B, N] -> [B, G, D] group means
    index = assign.unsqueeze(-1).expand_as(tokens)
    out = tokens.new_zeros(tokens.shape[0], num_groups, tokens.shape[-1])
    return out.scatter_reduce(1, index, tokens, reduce="mean", include_self=False)


def picked_proba(logits):
    # logits: [N, C] -> labels [N], probability of the predicted class [N]
    proba = logits.softmax(dim=-1)
    labels = proba.argmax(dim=1)
    return labels, proba[torch.arange(proba.shape[0]), labels]


def access_counts(ids, num_rows):
    # ids: [K] with repeats -> [num_rows]
    counts = torch.zeros(num_rows, dtype=torch.long)
    counts.index_put_((ids,), torch.ones_like(ids), accumulate=True)
    return counts


def frame_logprob(frame_logits, onsets_sec, hop_sec):
    # frame_logits: [T, 2], onsets_sec: [K] float64 -> [K]
    frames = torch.round(onsets_sec / hop_sec).long()
    return F.log_softmax(frame_logits, dim=-1)[:, 1].gather(0, frames)


if __name__ == "__main__":
    torch.manual_seed(0)
    T, H, E = 6, 8, 4
    x, router_w, experts = torch.randn(T, H), torch.randn(H, E), torch.randn(E, H, H)
    w, ids = route_top2(x, router_w)
    out = combine(x, w, ids, experts)
    for t in range(T):
        ref = sum(w[t, j] * (x[t] @ experts[ids[t, j]]) for j in range(2))
        assert torch.allclose(out[t], ref, atol=1e-5)

    tokens, assign = torch.randn(2, 10, 3), torch.randint(0, 3, (2, 10))
    merged = merge_mean(tokens, assign, 3)
    for b in range(2):
        for g in range(3):
            members = [tokens[b, n] for n in range(10) if assign[b, n] == g]
            ref = torch.stack(members).mean(0) if members else torch.zeros(3)
            assert torch.allclose(merged[b, g], ref, atol=1e-6)

    logits = torch.randn(5, 7)
    labels, conf = picked_proba(logits)
    for i in range(5):
        assert abs(conf[i].item() - logits[i].softmax(-1).max().item()) < 1e-6

    ids = torch.tensor([3, 3, 1, 3, 0, 1])
    assert access_counts(ids, 5).tolist() == [1, 2, 0, 3, 0]

    onsets = torch.tensor([0.3, 0.7, 1.2], dtype=torch.float64)
    fl = torch.randn(20, 2)
    lp = frame_logprob(fl, onsets, 0.1)
    for j, f in enumerate([3, 7, 12]):
        assert torch.allclose(lp[j], F.log_softmax(fl[f], dim=-1)[1])
    print("ok")
