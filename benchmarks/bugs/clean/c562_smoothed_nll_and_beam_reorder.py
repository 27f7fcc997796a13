import torch


def smoothed_nll(logits, labels, eps=0.1, ignore_index=-100):
    """Label-smoothed token NLL with ignored positions.

    Args:
        logits: ``(B, T, V)`` scores.
        labels: ``(B, T)`` target ids, ``ignore_index`` where no loss is taken.
    Returns:
        scalar mean loss over non-ignored tokens.
    """
    logp = logits.log_softmax(dim=-1)
    valid = labels != ignore_index
    safe = labels.masked_fill(~valid, 0)
    nll = -logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    smooth = -logp.mean(dim=-1)
    loss = (1 - eps) * nll + eps * smooth
    return (loss * valid).sum() / valid.sum()


def topk_rows(feats, scores, k):
    """Pick the ``k`` highest-scoring rows of every sample.

    Args:
        feats: ``(B, N, D)``; scores: ``(B, N)``.
    Returns:
        ``(B, k, D)``.
    """
    idx = scores.topk(k, dim=1).indices
    return torch.take_along_dim(feats, idx.unsqueeze(-1), dim=1)


def beam_step(scores, logprobs, beam, history):
    """One beam step on a flattened ``(batch * beam, vocab)`` layout; scores ``(batch, beam)``."""
    batch, vocab = scores.size(0), logprobs.size(-1)
    cand = (scores.unsqueeze(-1) + logprobs.view(batch, beam, vocab)).view(batch, -1)
    top_scores, top_ids = cand.topk(beam, dim=-1)
    parent = torch.div(top_ids, vocab, rounding_mode="floor")
    rows = (parent + torch.arange(batch).unsqueeze(-1) * beam).view(-1)
    history = torch.cat([history.index_select(0, rows), (top_ids % vocab).view(-1, 1)], dim=-1)
    return top_scores, history


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(2, 5, 11)
    labels = torch.randint(0, 11, (2, 5))
    labels[0, 3:] = -100
    got = smoothed_nll(logits, labels)
    total, count = 0.0, 0
    for b in range(2):
        for t in range(5):
            if labels[b, t].item() == -100:
                continue
            lp = logits[b, t].log_softmax(-1)
            total += 0.9 * -lp[labels[b, t]].item() + 0.1 * -lp.mean().item()
            count += 1
    assert abs(got.item() - total / count) < 1e-5

    feats, scores = torch.randn(3, 6, 4), torch.randn(3, 6)
    picked = topk_rows(feats, scores, 2)
    for b in range(3):
        order = sorted(range(6), key=lambda n: -scores[b, n].item())[:2]
        assert torch.equal(picked[b], feats[b, order])

    batch, beam, vocab = 2, 3, 7
    sc = torch.randn(batch, beam)
    lp = torch.log_softmax(torch.randn(batch * beam, vocab), -1)
    hist = torch.randint(0, vocab, (batch * beam, 2))
    new_sc, new_hist = beam_step(sc, lp, beam, hist)
    for b in range(batch):
        cands = sorted(((sc[b, k].item() + lp[b * beam + k, w].item(), k, w)
                        for k in range(beam) for w in range(vocab)), key=lambda c: -c[0])[:beam]
        for j, (s, k, w) in enumerate(cands):
            assert abs(new_sc[b, j].item() - s) < 1e-6
            assert new_hist[b * beam + j].tolist() == hist[b * beam + k].tolist() + [w]
    print("ok")
