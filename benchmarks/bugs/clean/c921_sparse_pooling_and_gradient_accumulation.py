import torch
import torch.nn.functional as F


def segment_max(feats, seg_ids, num_segments):
    # feats: (N, D) with negative values; seg_ids: (N,)
    out = feats.new_full((num_segments, feats.shape[1]), float("-inf"))
    index = seg_ids.unsqueeze(1).expand(-1, feats.shape[1])
    return out.scatter_reduce(0, index, feats, reduce="amax", include_self=False)


def lookup_backward(grad_out, ids, vocab):
    # grad_out: (N, D); ids repeat
    grad_table = grad_out.new_zeros(vocab, grad_out.shape[1])
    grad_table.index_put_((ids,), grad_out, accumulate=True)
    return grad_table


def masked_token_logprobs(logits, labels, ignore_index=-100):
    # logits: (B, T, V); labels: (B, T) with ignore_index on padding
    logp = F.log_softmax(logits, dim=-1)
    valid = labels != ignore_index
    safe = labels.masked_fill(~valid, 0)
    picked = logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    return picked * valid


def update_cache(cache, new_states, step):
    # cache: (B, H, L, D); new_states: (B, H, 1, D)
    positions = torch.arange(step, step + new_states.shape[2])
    return cache.index_copy(2, positions, new_states)


if __name__ == "__main__":
    torch.manual_seed(0)
    feats = -torch.rand(7, 3) - 0.1
    seg = torch.tensor([0, 0, 1, 2, 2, 2, 1])
    got = segment_max(feats, seg, 3)
    for s in range(3):
        rows = [feats[i] for i in range(7) if int(seg[i]) == s]
        ref = torch.stack(rows).max(0).values
        assert torch.allclose(got[s], ref)

    ids = torch.tensor([2, 5, 2, 2, 0])
    g = torch.randn(5, 4)
    gt = lookup_backward(g, ids, vocab=6)
    for v in range(6):
        ref = sum((g[i] for i in range(5) if int(ids[i]) == v), torch.zeros(4))
        assert torch.allclose(gt[v], ref, atol=1e-6)

    logits = torch.randn(2, 4, 9)
    labels = torch.tensor([[1, 8, -100, -100], [0, 3, 3, 7]])
    lp = masked_token_logprobs(logits, labels)
    for b in range(2):
        for t in range(4):
            y = int(labels[b, t])
            ref = 0.0 if y == -100 else float(torch.log_softmax(logits[b, t], -1)[y])
            assert abs(float(lp[b, t]) - ref) < 1e-5

    cache = torch.zeros(1, 2, 6, 4)
    new = torch.randn(1, 2, 1, 4)
    out = update_cache(cache, new, step=3)
    for p in range(6):
        ref = new[:, :, 0] if p == 3 else torch.zeros(1, 2, 4)
        assert torch.equal(out[:, :, p], ref)
    print("ok")
