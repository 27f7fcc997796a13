"""Packed-sequence LM utilities: per-document label shift, per-token log-probs,
group-wise advantage shaping, and batched top-k / min-p sampling."""
import torch
import torch.nn.functional as F

IGNORE_INDEX = -100


def shift_and_pack(documents, max_len, pad_id=0):
    """Pack documents into rows of `max_len`, shifting labels inside every document.

    Args:
        documents (`list[list[list[int]]]`): documents grouped per packed row.
        max_len (`int`): packed row length.

    Returns:
        `dict` with `input_ids`, `labels` and `doc_ids`, each of shape `(num_rows, max_len)`.
    """
    rows = {"input_ids": [], "labels": [], "doc_ids": []}
    for group in documents:
        ids, labels, doc_ids = [], [], []
        for d, doc in enumerate(group):
            ids += doc
            labels += doc[1:] + [IGNORE_INDEX]
            doc_ids += [d] * len(doc)
        pad = max_len - len(ids)
        rows["input_ids"].append(ids + [pad_id] * pad)
        rows["labels"].append(labels + [IGNORE_INDEX] * pad)
        rows["doc_ids"].append(doc_ids + [-1] * pad)
    return {k: torch.tensor(v) for k, v in rows.items()}


def per_token_logps(logits, labels):
    """Log-probability of each label under `logits`.

    Args:
        logits (`torch.Tensor` of shape `(batch_size, seq_len, vocab_size)`)
        labels (`torch.Tensor` of shape `(batch_size, seq_len)`): `IGNORE_INDEX` where unscored.

    Returns:
        `tuple(torch.Tensor, torch.Tensor)`: log-probs and a bool mask, both `(batch_size, seq_len)`.
    """
    mask = labels != IGNORE_INDEX
    safe = labels.masked_fill(~mask, 0)
    logp = logits.float().log_softmax(dim=-1).gather(dim=-1, index=safe.unsqueeze(-1)).squeeze(-1)
    return logp * mask, mask


def per_document_logprob(token_logps, doc_ids, num_docs):
    """Sum token log-probs per (row, document) with scatter_add_.

    Args:
        token_logps (`torch.Tensor` of shape `(batch_size, seq_len)`)
        doc_ids (`torch.Tensor` of shape `(batch_size, seq_len)`): -1 on padding.
        num_docs (`int`): maximum number of documents in a row.

    Returns:
        `torch.Tensor` of shape `(batch_size, num_docs)`.
    """
    out = token_logps.new_zeros(token_logps.size(0), num_docs + 1)
    index = (doc_ids + 1).clamp(min=0)  # padding goes to column 0
    out.scatter_add_(1, index, token_logps)
    return out[:, 1:]


def amplify_advantages(advantages, entropies, response_mask, group_ids, alpha=0.2):
    """Scale the advantage of high-entropy tokens of positive-advantage completions.

    Args:
        advantages (`torch.Tensor` of shape `(batch_size, seq_len)`)
        entropies (`torch.Tensor` of shape `(batch_size, seq_len)`)
        response_mask (`torch.Tensor` of shape `(batch_size, seq_len)`): 0/1 integer mask.
        group_ids (`torch.Tensor` of shape `(batch_size,)`)

    Returns:
        `torch.Tensor` of shape `(batch_size, seq_len)`.
    """
    response_mask = response_mask.bool()
    threshold = entropies[response_mask].median()
    out = advantages.clone()
    for gid in group_ids.unique():
        rows = group_ids == gid
        positive = (advantages[rows] * response_mask[rows]).sum(1) > 0
        high = (entropies[rows] > threshold) & response_mask[rows]
        high[~positive] = False
        full = torch.zeros_like(response_mask)
        full[rows] = high
        out[full] = out[full] * (1 + alpha)
    return out


def sample_next(logits, top_k=0, min_p=0.0, generator=None):
    """Batched top-k / min-p sampling; logits of shape `(batch_size, vocab_size)`."""
    if top_k > 0:
        kth = logits.topk(top_k, dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = logits.softmax(dim=-1)
    if min_p > 0.0:
        row_max = probs.max(dim=-1, keepdim=True).values
        probs = probs.masked_fill(probs < min_p * row_max, 0.0)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    V = 40
    docs = [[torch.randint(1, V, (n,)).tolist() for n in (6, 4, 7)],
            [torch.randint(1, V, (n,)).tolist() for n in (9, 5)]]
    batch = shift_and_pack(docs, max_len=20)
    logits = torch.randn(2, 20, V)
    token_logps, mask = per_token_logps(logits, batch["labels"])
    doc_logps = per_document_logprob(token_logps, batch["doc_ids"], num_docs=3)

    logp = logits.log_softmax(-1)
    for r, group in enumerate(docs):
        start = 0
        for d, doc in enumerate(group):
            ref = sum(logp[r, start + t, doc[t + 1]].item() for t in range(len(doc) - 1))
            assert abs(doc_logps[r, d].item() - ref) < 1e-4
            start += len(doc)
    assert int(mask.sum()) == sum(len(doc) - 1 for g in docs for doc in g)

    adv = torch.tensor([1.0, -1.0, 0.5, -0.5])[:, None].expand(-1, 6).contiguous()
    ent = torch.rand(4, 6)
    resp = torch.ones(4, 6, dtype=torch.long)
    resp[1, 4:] = 0
    shaped = amplify_advantages(adv, ent, resp, torch.tensor([0, 0, 1, 1]))
    thr = ent[resp.bool()].median().item()
    for b in range(4):
        for t in range(6):
            scale = 1.2 if (adv[b, t] > 0 and resp[b, t] and ent[b, t].item() > thr) else 1.0
            assert abs(shaped[b, t].item() - adv[b, t].item() * scale) < 1e-6

    gen = torch.Generator().manual_seed(1)
    step_logits = torch.randn(3, V) * 3
    probs = step_logits.softmax(-1)
    for _ in range(100):
        picks = sample_next(step_logits, min_p=0.1, generator=gen)
        for r, tok in enumerate(picks.tolist()):
            assert probs[r, tok].item() >= 0.1 * max(probs[r].tolist())
    print("ok")
