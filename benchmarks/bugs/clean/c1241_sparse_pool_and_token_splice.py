import torch


def segment_max_and_count(feats, seg, num_segments):
    """feats: (N, C), seg: (N,) segment id per row -> (S, C) max, (S,) counts."""
    C = feats.shape[1]
    out = feats.new_full((num_segments, C), float("-inf"))
    out.scatter_reduce_(0, seg.unsqueeze(1).expand(-1, C), feats, reduce="amax", include_self=True)
    counts = torch.zeros(num_segments, dtype=torch.long).index_add_(0, seg, torch.ones_like(seg))
    return out, counts


def splice_image_tokens(input_ids, embeds, image_feats, image_token_id):
    """embeds: (B, L, D); image_feats: (K, D) with K == number of image tokens."""
    mask = input_ids == image_token_id
    n = int(mask.sum())
    if n != image_feats.shape[0]:
        raise ValueError(f"{n} image tokens but {image_feats.shape[0]} image features")
    return embeds.masked_scatter(mask.unsqueeze(-1).expand_as(embeds), image_feats)


def histogram2d(targets, preds, n):
    cm = torch.zeros(n, n, dtype=torch.long)
    cm.index_put_((targets, preds), torch.ones_like(targets), accumulate=True)
    return cm


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    feats = torch.randn(40, 3, generator=g) - 2.0
    seg = torch.randint(0, 6, (40,), generator=g)
    mx, cnt = segment_max_and_count(feats, seg, 6)
    for s in range(6):
        rows = [feats[i] for i in range(40) if seg[i] == s]
        assert cnt[s].item() == len(rows)
        for c in range(3):
            assert mx[s, c].item() == max(r[c].item() for r in rows)

    ids = torch.tensor([[5, 9, 9, 1], [9, 2, 9, 3]])
    emb = torch.randn(2, 4, 8, generator=g)
    img = torch.randn(4, 8, generator=g)
    out = splice_image_tokens(ids, emb, img, 9)
    k = 0
    for b in range(2):
        for t in range(4):
            exp = img[k] if ids[b, t] == 9 else emb[b, t]
            k += int(ids[b, t] == 9)
            assert torch.equal(out[b, t], exp)

    t = torch.randint(0, 3, (100,), generator=g)
    p = torch.randint(0, 3, (100,), generator=g)
    cm = histogram2d(t, p, 3)
    ref = [[sum(1 for a, b in zip(t.tolist(), p.tolist()) if (a, b) == (i, j)) for j in range(3)] for i in range(3)]
    assert cm.tolist() == ref
    print("ok")
