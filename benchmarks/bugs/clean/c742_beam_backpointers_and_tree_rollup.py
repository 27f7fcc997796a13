import torch
import torch.nn.functional as F


def beam_step(scores, log_probs, states):
    # scores: [B, K]; log_probs: [B, K, V]; states: [B * K, H]
    B, K, V = log_probs.shape
    total = (scores.unsqueeze(-1) + log_probs).view(B, K * V)  # [B, K * V]
    best, flat = total.topk(K, dim=-1)  # [B, K]
    parent = torch.div(flat, V, rounding_mode="floor")  # [B, K] long
    word = flat % V  # [B, K]
    rows = (parent + torch.arange(B).unsqueeze(1) * K).view(-1)  # [B * K]
    return best, word, states.index_select(0, rows), parent


def rollup(node_stats, parent):
    # node_stats: [N, C]; parent: [N] -> each node adds itself to its parent
    totals = node_stats.clone()
    totals.index_add_(0, parent, node_stats)
    return totals


def segment_max(values, seg, n_seg):
    # values: [E, D]; seg: [E] -> [n_seg, D], include_self=False so the fill is ignored
    out = values.new_full((n_seg, values.size(1)), float("-inf"))
    idx = seg.unsqueeze(1).expand_as(values)
    return out.scatter_reduce(0, idx, values, reduce="amax", include_self=False)


def token_logprobs(logits, labels):
    # logits: [B, T, V]; labels: [B, T] -> [B, T]
    logp = F.log_softmax(logits, dim=-1)
    return logp.gather(2, labels.unsqueeze(-1)).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, K, V, H = 2, 3, 7, 4
    states = torch.randn(B * K, H)
    lp = torch.randn(B, K, V).log_softmax(-1)
    best, word, new_states, parent = beam_step(torch.zeros(B, K), lp, states)
    for b in range(B):
        for k in range(K):
            p = int(parent[b, k])
            assert torch.equal(new_states[b * K + k], states[b * K + p])
            assert abs(float(best[b, k]) - float(lp[b, p, int(word[b, k])])) < 1e-6

    par = torch.tensor([0, 0, 0, 1, 1, 2])
    stats = torch.rand(6, 2)
    tot = rollup(stats, par)
    for r in range(6):
        ref = stats[r].clone()
        for c in range(6):
            if int(par[c]) == r:
                ref += stats[c]
        assert torch.allclose(tot[r], ref)

    vals = -torch.rand(8, 3) - 1.0
    seg = torch.tensor([0, 0, 1, 2, 2, 2, 3, 3])
    mx = segment_max(vals, seg, 4)
    for s in range(4):
        rows = [i for i in range(8) if int(seg[i]) == s]
        for d in range(3):
            assert float(mx[s, d]) == max(float(vals[i, d]) for i in rows)

    logits = torch.randn(2, 5, 9)
    labels = torch.randint(0, 9, (2, 5))
    tl = token_logprobs(logits, labels)
    for b in range(2):
        for t in range(5):
            ref = float(logits[b, t, int(labels[b, t])] - torch.logsumexp(logits[b, t], 0))
            assert abs(float(tl[b, t]) - ref) < 1e-5
    print("ok")
