import torch


def class_weight_per_sample(class_weight, labels_u8):
    # class_weight: [C] float, labels_u8: [N] uint8 read from masks
    return class_weight[labels_u8.long()]  # [N]


def gather_ring(feats, rings):
    # feats: [E, D], rings: [E, 4] with -1 for a missing neighbour -> [E, 4, D], zeros where missing
    padded = torch.cat([feats.new_zeros(1, feats.shape[1]), feats], dim=0)  # [E+1, D]
    return padded[rings + 1]


def count_pairs(rows, cols, num_rows, num_cols):
    # rows, cols: [S] int64 with repeated pairs -> [num_rows, num_cols] counts
    counts = torch.zeros(num_rows, num_cols)
    counts.index_put_((rows, cols), torch.ones(rows.shape[0]), accumulate=True)
    return counts


def neighbour_max(x, src, dst):
    # x: [N, D]; src, dst: [M] edges -> [N, D], 0 for nodes without outgoing edges
    diff = x[src] - x[dst]  # [M, D]
    out = torch.zeros_like(x)
    return out.scatter_reduce(0, src[:, None].expand_as(diff), diff, reduce="amax", include_self=False)


def last_real_token(hidden, attention_mask):
    # hidden: [B, T, H], attention_mask: [B, T] (left or right padded) -> [B, H]
    positions = torch.arange(attention_mask.shape[1]).expand_as(attention_mask)
    last = (positions * attention_mask).argmax(dim=1)  # [B]
    return hidden.gather(1, last[:, None, None].expand(-1, 1, hidden.shape[-1])).squeeze(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    w = torch.tensor([0.5, 1.0, 2.0, 4.0])
    labels = torch.tensor([0, 3, 1, 1, 2], dtype=torch.uint8)
    assert class_weight_per_sample(w, labels).tolist() == [w[int(y)].item() for y in labels.tolist()]

    feats = torch.randn(6, 3)
    rings = torch.tensor([[1, 2, -1, -1], [0, 2, 3, 4], [0, 1, 4, 5], [1, 4, -1, -1], [1, 2, 3, 5], [2, 4, -1, -1]])
    ring = gather_ring(feats, rings)
    for e, ids in enumerate(rings.tolist()):
        for j, i in enumerate(ids):
            assert torch.equal(ring[e, j], feats[i] if i >= 0 else torch.zeros(3))

    rows, cols = torch.tensor([0, 0, 1, 2, 2, 2]), torch.tensor([1, 1, 0, 3, 3, 1])
    ref = [[0.0] * 4 for _ in range(3)]
    for r, c in zip(rows.tolist(), cols.tolist()):
        ref[r][c] += 1
    assert count_pairs(rows, cols, 3, 4).tolist() == ref

    x = torch.randn(5, 2)
    src, dst = torch.tensor([0, 0, 1, 2]), torch.tensor([1, 2, 0, 1])
    nm = neighbour_max(x, src, dst)
    for n in range(5):
        diffs = [x[s] - x[d] for s, d in zip(src.tolist(), dst.tolist()) if s == n]
        expect = torch.stack(diffs).amax(0) if diffs else torch.zeros(2)
        assert torch.allclose(nm[n], expect)

    hidden = torch.randn(3, 5, 4)
    mask = torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 1, 0], [0, 1, 1, 1, 1]])
    pooled = last_real_token(hidden, mask)
    for b, row in enumerate(mask.tolist()):
        j = max(i for i, m in enumerate(row) if m)
        assert torch.equal(pooled[b], hidden[b, j])
    print("ok")
