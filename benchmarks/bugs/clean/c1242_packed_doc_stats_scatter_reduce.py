import torch
import torch.nn.functional as F

IGNORE = -100


def per_token_logp(logits, labels):
    # logits: [B, T, V], labels: [B, T] with IGNORE on padding
    valid = labels != IGNORE
    safe = labels.masked_fill(~valid, 0)
    logp = F.log_softmax(logits, dim=-1).gather(-1, safe.unsqueeze(-1)).squeeze(-1)  # [B, T]
    return logp * valid, valid


def per_document_stats(token_logp, valid, doc_ids, num_docs):
    # token_logp, valid, doc_ids: [B, T]; doc_ids index packed documents 0..num_docs-1
    flat_lp = token_logp.flatten()
    flat_doc = doc_ids.flatten()
    flat_valid = valid.flatten().float()
    total = torch.zeros(num_docs).scatter_add_(0, flat_doc, flat_lp)
    count = torch.zeros(num_docs).scatter_add_(0, flat_doc, flat_valid)
    worst = torch.full((num_docs,), float("inf")).scatter_reduce(
        0, flat_doc, flat_lp.masked_fill(flat_valid == 0, float("inf")), reduce="amin", include_self=False)
    return total, count, worst


def token_doc_counts(labels, doc_ids, num_docs, vocab):
    # counts[d, v]: how often token v is a target in document d (repeats accumulate)
    counts = torch.zeros(num_docs, vocab)
    valid = labels != IGNORE
    counts.index_put_((doc_ids[valid], labels[valid]), torch.ones(int(valid.sum())), accumulate=True)
    return counts


if __name__ == "__main__":
    torch.manual_seed(0)
    B, T, V, D = 2, 7, 5, 3
    logits = torch.randn(B, T, V)
    labels = torch.tensor([[1, 1, 3, 1, IGNORE, 2, 2], [4, 0, 0, 0, 3, IGNORE, IGNORE]])
    doc_ids = torch.tensor([[0, 0, 0, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2, 2]])
    lp, valid = per_token_logp(logits, labels)
    total, count, worst = per_document_stats(lp, valid, doc_ids, D)
    counts = token_doc_counts(labels, doc_ids, D, V)

    full = F.log_softmax(logits, dim=-1)
    ref_total, ref_count, ref_worst = [0.0] * D, [0] * D, [float("inf")] * D
    ref_counts = [[0] * V for _ in range(D)]
    for b in range(B):
        for t in range(T):
            y, d = labels[b, t].item(), doc_ids[b, t].item()
            if y == IGNORE:
                continue
            v = full[b, t, y].item()
            ref_total[d] += v
            ref_count[d] += 1
            ref_worst[d] = min(ref_worst[d], v)
            ref_counts[d][y] += 1
    assert torch.allclose(total, torch.tensor(ref_total), atol=1e-5)
    assert count.tolist() == [float(c) for c in ref_count]
    assert torch.allclose(worst, torch.tensor(ref_worst), atol=1e-6)
    assert counts.tolist() == [[float(c) for c in row] for row in ref_counts]
    print("ok")
