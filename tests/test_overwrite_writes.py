"""GL013 for writes that keep one value per repeated position (overwrite_writes.py, repeated_indices.py).

Every snippet binds `out` (what the code computes) and `expected` (what its author meant, by a plain
loop). Flagged snippets must misbehave in torch (one write kept per repeated position) and their
suggested fix must give `expected`; silent ones are correct in torch.
"""

import pytest

from .conftest import lint
from .snippets import run_snippet

# (name, code, line of the finding); every index below can repeat, and the writes lose data
FLAGGED = [
    ("confusion-pairs-argmax", """
        import torch
        scores = torch.randn(60, 4)  # [N, K]
        gold = torch.randint(0, 4, (60,))
        guess = scores.argmax(dim=-1)
        table = torch.zeros(4, 4)
        table[gold, guess] += 1
        out = table
        expected = torch.zeros(4, 4)
        for g, p in zip(gold.tolist(), guess.tolist()):
            expected[g, p] += 1
        fixed = torch.zeros(4, 4).index_put_((gold, guess), torch.ones(60), accumulate=True)
    """, 7),
    ("histogram-index-put-rounded", """
        import torch
        xy = torch.rand(300, 2) * 9
        ij = xy.round().long().clamp(0, 9)
        w = torch.rand(300)
        hist = torch.zeros(10, 10)
        hist.index_put_((ij[:, 1], ij[:, 0]), w)
        out = hist
        expected = torch.zeros(10, 10)
        for (i, j), v in zip(ij.tolist(), w.tolist()):
            expected[j, i] += v
        fixed = torch.zeros(10, 10).index_put_((ij[:, 1], ij[:, 0]), w, accumulate=True)
    """, 7),
    ("bag-of-words-scatter-randint", """
        import torch
        doc_tokens = torch.randint(0, 6, (2, 10))
        weight = torch.rand(2, 10)
        bow = torch.zeros(2, 6).scatter_(1, doc_tokens, weight)
        out = bow
        expected = torch.zeros(2, 6)
        for b in range(2):
            for t in range(10):
                expected[b, doc_tokens[b, t]] += weight[b, t]
        fixed = torch.zeros(2, 6).scatter_add_(1, doc_tokens, weight)
    """, 5),
    ("sequence-ids-scatter-into-vocab", """
        import torch

        def pointer_mass(attn, seq_ids, vocab: int):
            # attn: [B, L], seq_ids: [B, L]
            return attn.new_zeros(attn.size(0), vocab).scatter(1, seq_ids, attn)

        attn = torch.softmax(torch.randn(2, 7), -1)
        seq_ids = torch.tensor([[1, 1, 2, 3, 1, 0, 2], [4, 4, 4, 0, 1, 2, 3]])
        out = pointer_mass(attn, seq_ids, 5)
        expected = torch.zeros(2, 5)
        for b in range(2):
            for t in range(7):
                expected[b, seq_ids[b, t]] += attn[b, t]
        fixed = attn.new_zeros(2, 5).scatter_add(1, seq_ids, attn)
    """, 6),
    ("prototype-update-index-copy", """
        import torch
        protos = torch.randn(3, 4)
        cls = torch.randint(0, 3, (12,))
        feats = torch.randn(12, 4)
        start = protos.clone()
        cur = protos.index_select(0, cls)
        protos.index_copy_(0, cls, cur + 0.1 * (feats - cur))
        out = protos
        expected = start.clone()
        for i, c in enumerate(cls.tolist()):
            expected[c] += 0.1 * (feats[i] - start[c])
        fixed = start.clone().index_add_(0, cls, 0.1 * (feats - cur))
    """, 8),
    ("page-usage-floor-division", """
        import torch
        token_pos = torch.arange(32)
        page = token_pos // 8
        usage = torch.zeros(4)
        usage[page] += 1
        out = usage
        expected = torch.full((4,), 8.0)
        fixed = torch.zeros(4).index_put_((page,), torch.ones(32), accumulate=True)
    """, 6),
]

FLAGGED += [
    ("voxel-pool-unique-inverse", """
        import torch
        pts = torch.rand(100, 3) * 2
        feats = torch.rand(100, 4)
        keys = torch.floor(pts).int()
        uniq, inverse = torch.unique(keys, dim=0, return_inverse=True)
        pooled = torch.zeros(uniq.shape[0], 4)
        pooled[inverse] = feats
        out = pooled
        expected = torch.zeros(uniq.shape[0], 4).index_add_(0, inverse, feats)
        fixed = torch.zeros(uniq.shape[0], 4).index_put_((inverse,), feats, accumulate=True)
    """, 8),
    ("histogram-bucketize", """
        import torch
        values = torch.rand(50)
        edges = torch.tensor([0.25, 0.5, 0.75])
        bins = torch.bucketize(values, edges)
        counts = torch.zeros(4)
        counts[bins] += 1
        out = counts
        expected = torch.bincount(bins, minlength=4).float()
        fixed = torch.zeros(4).index_put_((bins,), torch.ones(50), accumulate=True)
    """, 7),
    # whole axes before the index tensor (`bev[:, cells]`, `bev[..., cells]`): columns collide as rows do
    ("bev-columns-after-a-full-slice", """
        import torch
        points = torch.rand(40, 3) * 2.0
        feats = torch.rand(40, 2)
        ix = (points[:, 0] / 0.5).floor().long().clamp(0, 3)
        iy = (points[:, 1] / 0.5).floor().long().clamp(0, 3)
        bev = feats.new_zeros(2, 16)
        bev[:, iy * 4 + ix] = feats.t()
        out = bev
        expected = torch.zeros(2, 16)
        for p in range(40):
            expected[:, int(iy[p]) * 4 + int(ix[p])] += feats[p]
        fixed = feats.new_zeros(2, 16).index_add_(1, iy * 4 + ix, feats.t())
    """, 8),
    ("voxel-grid-of-one-sample-cat-with-batch-ids", """
        import torch
        B, N, C = 2, 60, 3
        geom = torch.rand(B, N, 3) * 4
        x = torch.rand(B * N, C)
        coords = (geom / 1.0).long().reshape(B * N, 3)
        batch_ix = torch.arange(B).repeat_interleave(N).unsqueeze(1)
        cells = torch.cat((coords, batch_ix), 1)
        grid = torch.zeros(B, C, 4, 4, 4)
        grid[cells[:, 3], :, cells[:, 2], cells[:, 0], cells[:, 1]] = x
        out = grid
        expected = torch.zeros(B, C, 4, 4, 4)
        for p in range(B * N):
            b, z, i, j = int(cells[p, 3]), int(cells[p, 2]), int(cells[p, 0]), int(cells[p, 1])
            expected[b, :, z, i, j] += x[p]
        fixed = torch.zeros(B, 4, 4, 4, C).index_put_(
            (cells[:, 3], cells[:, 2], cells[:, 0], cells[:, 1]), x, accumulate=True).permute(0, 4, 1, 2, 3)
    """, 10),
    ("one-plane-of-a-grid-written-at-voxel-columns", """
        import torch
        pts = torch.rand(50, 2) * 3
        feats = torch.rand(50, 4)
        cells = (pts / 1.0).long()
        grid = torch.zeros(2, 4, 3, 3)
        grid[0, :, cells[:, 0], cells[:, 1]] = feats.t()
        out = grid
        expected = torch.zeros(2, 4, 3, 3)
        for p in range(50):
            expected[0, :, int(cells[p, 0]), int(cells[p, 1])] += feats[p]
        fixed = torch.zeros(2, 3, 3, 4)
        fixed[0].index_put_((cells[:, 0], cells[:, 1]), feats, accumulate=True)
        fixed = fixed.permute(0, 3, 1, 2)
    """, 7),
    ("flat-frame-put-without-accumulate", """
        import torch
        points = torch.rand(40, 2) * 2
        feats = torch.rand(40)
        xs = (points[:, 0] / 0.5).floor().long().clamp(0, 3)
        ys = (points[:, 1] / 0.5).floor().long().clamp(0, 3)
        frame = torch.zeros(4, 4)
        frame.put_(ys * 4 + xs, feats)
        out = frame
        expected = torch.zeros(4, 4)
        for p in range(40):
            expected[int(ys[p]), int(xs[p])] += feats[p]
        fixed = torch.zeros(4, 4).put_(ys * 4 + xs, feats, accumulate=True)
    """, 8),
    ("bev-columns-after-an-ellipsis", """
        import torch
        points = torch.rand(40, 3) * 2.0
        feats = torch.rand(40, 2)
        cells = (points[:, 0] / 0.5).floor().long().clamp(0, 3)
        bev = torch.zeros(2, 4)
        bev[..., cells] = feats.t()
        out = bev
        expected = torch.zeros(2, 4)
        for p in range(40):
            expected[:, int(cells[p])] += feats[p]
        fixed = torch.zeros(2, 4).index_add_(1, cells, feats.t())
    """, 7),
]

# correct code of the same family: one write per position, or equal values at equal positions
SILENT = [
    ("flat-put-of-a-permutation", """
        import torch
        feats = torch.rand(16)
        order = torch.randperm(16)
        frame = torch.zeros(4, 4)
        frame.put_(order, feats)
        out = frame
        expected = torch.zeros(16)
        expected[order] = feats
        expected = expected.view(4, 4)
    """),
    ("cells-joined-with-a-row-number-are-distinct", """
        import torch
        pts = torch.rand(30, 2) * 3
        feats = torch.rand(30)
        cells = (pts / 1.0).long()
        keyed = torch.cat((cells, torch.arange(30).unsqueeze(1)), 1)
        table = torch.zeros(3, 3, 30)
        table[keyed[:, 0], keyed[:, 1], keyed[:, 2]] = feats
        out = table
        expected = torch.zeros(3, 3, 30)
        for p in range(30):
            expected[int(cells[p, 0]), int(cells[p, 1]), p] = feats[p]
    """),
    ("columns-of-a-permutation-after-a-full-slice", """
        import torch
        feats = torch.rand(16, 2)
        order = torch.randperm(16)
        bev = torch.zeros(2, 16)
        bev[:, order] = feats.t()
        out = bev
        expected = torch.zeros(2, 16)
        for p in range(16):
            expected[:, int(order[p])] = feats[p]
    """),
    ("one-hot-scatter", """
        import torch
        labels = torch.randint(0, 4, (5,))
        out = torch.zeros(5, 4).scatter_(1, labels.unsqueeze(1), 1.0)
        expected = torch.nn.functional.one_hot(labels, 4).float()
    """),
    ("presence-mask-of-cells", """
        import torch
        pts = torch.rand(50, 2) * 4
        cells = (pts / 1.0).long()
        occupied = torch.zeros(4, 4)
        occupied[cells[:, 0], cells[:, 1]] = 1.0
        out = occupied
        expected = torch.zeros(4, 4)
        for i, j in cells.tolist():
            expected[i, j] = 1.0
    """),
    ("rows-from-arange", """
        import torch
        x = torch.rand(6) * 3
        grid = torch.zeros(6, 3)
        grid[torch.arange(6), x.long()] += torch.ones(6)
        out = grid
        expected = torch.nn.functional.one_hot(x.long(), 3).float()
    """),
    ("same-positions-read-and-written", """
        import torch
        pts = torch.rand(40, 2) * 4
        cells = pts.floor().long()
        palette = torch.rand(4, 4)
        canvas = torch.zeros(4, 4)
        canvas[cells[:, 0], cells[:, 1]] = palette[cells[:, 0], cells[:, 1]]
        out = canvas
        expected = torch.zeros(4, 4)
        for i, j in cells.tolist():
            expected[i, j] = palette[i, j]
    """),
    ("sparse-coordinate-rows-by-name", """
        import torch
        pair_y = torch.tensor([[0, 1, 2], [2, 0, 1]])
        weights = torch.rand(3)
        scores = torch.zeros(3, 3)
        scores[pair_y[0], pair_y[1]] += weights
        out = scores
        expected = torch.zeros(3, 3)
        for k in range(3):
            expected[pair_y[0, k], pair_y[1, k]] += weights[k]
    """),
    ("added-token-bias-by-name", """
        import torch
        added_ids = torch.tensor([7, 3, 5])
        bias = torch.zeros(10)
        bias[added_ids] = torch.tensor([0.5, -1.0, 2.0])
        out = bias
        expected = torch.zeros(10)
        for i, v in zip([7, 3, 5], [0.5, -1.0, 2.0]):
            expected[i] = v
    """),
    ("topk-scatter", """
        import torch
        logits = torch.randn(3, 8)
        vals, idx = logits.topk(3, dim=-1)
        out = torch.zeros_like(logits).scatter(1, idx, vals)
        expected = torch.where(logits >= vals[:, -1:], logits, torch.zeros(()))
    """),
    ("flat-token-ids-scatter-by-name", """
        import torch
        token_ids = torch.tensor([4, 1, 3])
        w = torch.rand(3)
        out = torch.zeros(6).scatter(0, token_ids, w)
        expected = torch.zeros(6)
        expected[[4, 1, 3]] = w
    """),
    ("index-put-accumulate", """
        import torch
        xy = torch.rand(30, 2) * 3
        ij = xy.floor().long()
        w = torch.rand(30)
        out = torch.zeros(3, 3)
        out.index_put_((ij[:, 0], ij[:, 1]), w, accumulate=True)
        expected = torch.zeros(3, 3)
        for (i, j), v in zip(ij.tolist(), w.tolist()):
            expected[i, j] += v
    """),
    ("repetition-penalty-scatter", """
        import torch
        input_ids = torch.tensor([[1, 1, 3], [0, 2, 2]])
        logits = torch.randn(2, 5)
        start = logits.clone()
        score = torch.gather(logits, 1, input_ids)
        score = torch.where(score < 0, score * 1.5, score / 1.5)
        logits.scatter_(1, input_ids, score)
        out = logits
        expected = start.clone()
        for b in range(2):
            for t in set(input_ids[b].tolist()):
                v = start[b, t]
                expected[b, t] = v * 1.5 if v < 0 else v / 1.5
    """),
    ("argmax-one-hot", """
        import torch
        logits = torch.randn(4, 3)
        out = torch.zeros(4, 3).scatter_(1, logits.argmax(1, keepdim=True), torch.ones(4, 1))
        expected = torch.nn.functional.one_hot(logits.argmax(1), 3).float()
    """),
]




@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_overwriting_write_is_flagged_at_its_line(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL013", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_torch_keeps_one_write_and_the_suggested_fix_accumulates(code, line, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"]), "torch kept every write"
    assert torch.allclose(scope["fixed"], scope["expected"])


@pytest.mark.parametrize("code", [c for _, c in SILENT], ids=[n for n, _ in SILENT])
def test_one_write_per_position_is_silent(code):
    assert [f for f in lint(code) if f.code == "GL013"] == []


@pytest.mark.parametrize("code", [c for _, c in SILENT], ids=[n for n, _ in SILENT])
def test_silent_snippets_are_right_in_torch(code, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert torch.allclose(scope["out"], scope["expected"])


def test_message_says_why_positions_repeat_what_torch_does_and_the_fix():
    code = dict((n, c) for n, c, _ in FLAGGED)["histogram-index-put-rounded"]
    message = next(f.message for f in lint(code) if f.code == "GL013")
    assert "coordinates rounded from floats" in message and "can repeat" in message
    assert "one write per position" in message and "accumulate=True" in message
    scatter = next(f.message for f in lint(dict((n, c) for n, c, _ in FLAGGED)["bag-of-words-scatter-randint"])
                   if f.code == "GL013")
    assert "randint" in scatter and "scatter_add_" in scatter


def test_quantised_marks_reach_a_callers_write_through_a_helper():
    code = """
        import torch

        def to_cells(points, size: float):
            return torch.floor(points / size).long()

        def splat(points, values: torch.Tensor):
            cells = to_cells(points, 0.5)
            grid = torch.zeros(8, 8)
            grid.index_put_((cells[:, 0], cells[:, 1]), values)
            return grid
    """
    assert ("GL013", 10) in [(f.code, f.line) for f in lint(code)]


def test_unbound_coordinates_and_a_helper_named_like_labels_carry_their_facts():
    """`x, y, z = pts.unbind(-1)` gives tensors of pts' dtype, and a module function whose name reads
    like ids (`make_target`) is called, not taken for a tensor of ids."""
    code = """
        import torch

        def pixels(pts, f: float):
            x, y, z = pts.unbind(-1)
            col = (f * x / z).round().long().clamp(0, 15)
            row = (f * y / z).round().long().clamp(0, 11)
            return row, col, z

        def make_target(pts):
            row, col, z = pixels(pts, 8.0)
            image = torch.zeros(12, 16)
            image.index_put_((row, col), z)
            return image

        if __name__ == "__main__":
            image = make_target(torch.rand(500, 3) + 1.0)
    """
    assert ("GL013", 13) in [(f.code, f.line) for f in lint(code)]


def test_new_tensor_of_sizes_is_a_one_dim_src(torch):
    """x.new_tensor((B, 1)) holds the numbers B and 1: a [2] tensor, which scatter_add_ rejects."""
    code = """
        import torch
        cls = torch.randint(0, 5, (6, 1))
        hist = torch.zeros(6, 5)
        ones = hist.new_tensor((cls.size(0), 1)).fill_(1.0)
        hist.scatter_add_(1, cls, ones)
    """
    assert ("GL001", 6) in [(f.code, f.line) for f in lint(code)]
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions as src tensor"):
        run_snippet(code)


def test_index_copy_into_zeros_with_rounded_rows(torch):
    code = """
        import torch
        t = torch.rand(40) * 5
        slot = t.floor().long()
        feats = torch.rand(40, 3)
        pooled = torch.zeros(5, 3).index_copy_(0, slot, feats)
        out = pooled
        expected = torch.zeros(5, 3).index_add_(0, slot, feats)
    """
    found = [f for f in lint(code) if f.code == "GL013"]
    assert [f.line for f in found] == [6] and "index_add_" in found[0].message
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"])


def test_subscript_fill_is_checked_where_the_block_is_analysed(torch):
    """`grid[rows, cols] = v` at rounded coordinates, in a block analysed for its family call."""
    code = """
        import torch
        pts = torch.rand(200, 3) * 4  # [N, 3]
        cols = (pts[:, 0] / 0.5).long()
        rows = torch.floor(pts[:, 1] / 0.5).long()
        height = torch.zeros(8, 8)
        height[rows, cols] = pts[:, 2]
        top = height.gather(1, torch.zeros(8, 1, dtype=torch.long))
        out = height
        expected = torch.zeros(64).scatter_reduce_(0, rows * 8 + cols, pts[:, 2], "amax").view(8, 8)
    """
    assert ("GL013", 7) in [(f.code, f.line) for f in lint(code)]
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"])


def test_a_slice_led_write_suggests_index_add_along_the_indexed_axis():
    code = dict((n, c) for n, c, _ in FLAGGED)["bev-columns-after-a-full-slice"]
    [finding] = [f for f in lint(code) if f.code == "GL013"]
    assert "the positions `iy * 4 + ix`" in finding.message
    assert "`bev.index_add_(1, iy * 4 + ix, feats.t())`" in finding.help


GRID_DEFAULT = """
import torch

def rasterize(points, feats, grid_hw, cell):
    height, width = grid_hw
    ix = (points[:, 0] / cell).floor().long().clamp(0, width - 1)
    iy = (points[:, 1] / cell).floor().long().clamp(0, height - 1)
    bev = feats.new_zeros(feats.size(1), height * width)
    bev[:, iy * width + ix] = feats.t()
    return bev

def density(points, intensity, grid_hw=(4, 4), cell=0.5):
    return rasterize(points, torch.stack([intensity, torch.ones_like(intensity)], dim=1), grid_hw, cell)

def main():
    return density(torch.rand(40, 3) * 2.0, torch.rand(40))

if __name__ == "__main__":
    main()
"""


def test_a_tuple_default_left_out_by_the_call_is_the_callees_argument(torch):
    """`grid_hw=(4, 4)` left out: the width is 4, so `iy * width + ix` keeps the coordinates' repeats."""
    assert [(f.code, f.line) for f in lint(GRID_DEFAULT)] == [("GL013", 9)]
    torch.manual_seed(0)
    scope = run_snippet(GRID_DEFAULT)
    counts = scope["main"]()[1]
    assert counts.sum().item() < 40  # each occupied cell counts one of its points: the others are lost

