import torch
import torch.nn.functional as F


def grid_cells(coords, patch_size):
    # coords: (N, 2) float pixel positions -> (N,) long row-major cell ids, (H, W)
    cells = torch.div(coords - coords.min(dim=0).values, patch_size, rounding_mode="floor").long()
    width = int(cells[:, 0].max()) + 1
    height = int(cells[:, 1].max()) + 1
    return cells[:, 1] * width + cells[:, 0], (height, width)


def splat(features, cell_ids, num_cells):
    # features: (N, D), cell_ids: (N,) -> (num_cells, D) summed per cell
    out = features.new_zeros(num_cells, features.shape[1])
    return out.index_add_(0, cell_ids, features)


def segment_max(values, segment_ids, num_segments):
    # values: (N, D) may be negative; empty segments stay 0
    index = segment_ids.unsqueeze(1).expand_as(values)  # (N, D)
    out = values.new_zeros(num_segments, values.shape[1])
    return out.scatter_reduce(0, index, values, reduce="amax", include_self=False)


def shuffle_and_restore(tokens, generator):
    # tokens: (B, L); destinations are a true permutation per row
    perm = torch.rand(tokens.shape, generator=generator).argsort(dim=1)  # (B, L)
    shuffled = torch.empty_like(tokens).scatter_(1, perm, tokens)
    restored = shuffled.gather(1, perm)
    return shuffled, restored


def class_targets(class_ids, class_names):
    # class_ids: (G,) long in [0, len(class_names))
    return F.one_hot(class_ids, num_classes=len(class_names)).float()  # (G, C)


if __name__ == "__main__":
    torch.manual_seed(0)
    coords = torch.tensor([[0, 0], [512, 0], [512, 0], [0, 1024]]).float() + 100.0
    feats = torch.randn(4, 3)
    ids, (h, w) = grid_cells(coords, 512)
    grid = splat(feats, ids, h * w)
    ref = torch.zeros(h * w, 3)
    for n in range(4):
        x, y = int((coords[n, 0] - 100) // 512), int((coords[n, 1] - 100) // 512)
        ref[y * w + x] += feats[n]
    assert torch.allclose(grid, ref)

    vals = torch.randn(10, 4) - 1.0
    seg = torch.tensor([0, 0, 1, 1, 1, 3, 3, 3, 3, 0])
    mx = segment_max(vals, seg, 4)
    for s in range(4):
        rows = [i for i in range(10) if int(seg[i]) == s]
        for c in range(4):
            exp = max(float(vals[i, c]) for i in rows) if rows else 0.0
            assert abs(float(mx[s, c]) - exp) < 1e-6

    g = torch.Generator().manual_seed(1)
    toks = torch.randint(1, 50, (3, 8), generator=g)
    shuffled, restored = shuffle_and_restore(toks, g)
    assert torch.equal(restored, toks)
    for b in range(3):
        assert sorted(shuffled[b].tolist()) == sorted(toks[b].tolist())

    names = ["plane", "ship", "harbor", "container-crane"]
    t = class_targets(torch.tensor([3, 0, 2]), names)
    for r, k in enumerate([3, 0, 2]):
        assert t[r].tolist() == [1.0 if c == k else 0.0 for c in range(len(names))]
    print("ok")
