"""GL013 where a zeros buffer is written by subscript with rounded coordinates, in files that name no op
of the family: `.round().long()` / `.floor().int()` admit the file, and the block writing the buffer
is analysed with the helper that rounds (static/analyzer.py's prefilter).

Every flagged snippet binds `out` (what the code computes), `expected` (every value accumulated, by a
plain loop) and `fixed` (every value accumulated by `bincount`,
as `index_put_(..., accumulate=True)` would: the snippets must not name an op of the family); torch must give `out != expected` and
`fixed == expected`.
"""

import pytest

from .conftest import lint
from .snippets import run_snippet

FLAGGED = [
    ("helper-projects-pixels-caller-writes-depth", """
        import torch

        def to_pixels(points, focal, width, height):
            x, y, z = points.unbind(-1)
            u = (focal * x / z + width / 2).round().long().clamp(0, width - 1)
            v = (focal * y / z + height / 2).round().long().clamp(0, height - 1)
            return u, v, z

        def intensity_image(points, width, height):
            u, v, z = to_pixels(points, 4.0, width, height)
            image = torch.zeros(height, width)
            image[v, u] = 1.0 / z
            return image

        points = torch.rand(200, 3) + torch.tensor([0.0, 0.0, 1.0])
        out = intensity_image(points, 6, 5)
        u, v, z = to_pixels(points, 4.0, 6, 5)
        expected = torch.tensor([[sum(1.0 / zi for ui, vi, zi in zip(u.tolist(), v.tolist(), z.tolist()) if (vi, ui) == (r, c))
                                  for c in range(6)] for r in range(5)])
        fixed = torch.bincount(v * 6 + u, weights=1.0 / z, minlength=30).view(5, 6).float()
    """, 13),
    ("method-floors-cells-buffer-written-in-another-method", """
        import torch

        class Rasteriser:
            def __init__(self, cell):
                self.cell = cell

            def cells(self, xy):
                return (xy / self.cell).floor().long()

            def splat(self, xy, mass):
                ij = self.cells(xy)
                grid = torch.zeros(8, 8)
                grid[ij[:, 0], ij[:, 1]] = mass
                return grid

        xy = torch.rand(100, 2) * 7.9
        mass = torch.rand(100)
        out = Rasteriser(1.0).splat(xy, mass)
        ij = (xy / 1.0).floor().long()
        expected = torch.tensor([[sum(m for (i, j), m in zip(ij.tolist(), mass.tolist()) if (i, j) == (r, c))
                                  for c in range(8)] for r in range(8)])
        fixed = torch.bincount(ij[:, 0] * 8 + ij[:, 1], weights=mass, minlength=64).view(8, 8).float()
    """, 14),
    ("same-function-round-int-bins", """
        import torch

        def weighted_histogram(values, weights, n_bins: int):
            bins = (values * (n_bins - 1)).round().int()
            hist = torch.zeros(n_bins)
            hist[bins] = weights
            return hist

        values, weights = torch.rand(50), torch.rand(50)
        out = weighted_histogram(values, weights, 6)
        bins = (values * 5).round().int()
        expected = torch.tensor([sum(w for b, w in zip(bins.tolist(), weights.tolist()) if b == k) for k in range(6)])
        fixed = torch.bincount(bins.long(), weights=weights, minlength=6).float()
    """, 7),
]




@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_rounded_positions_written_into_zeros_are_flagged(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL013", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_torch_keeps_one_write_per_position_and_accumulate_is_right(code, line, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"])
    assert torch.allclose(scope["fixed"], scope["expected"], atol=1e-5)


def test_a_file_rounding_coordinates_without_a_buffer_write_is_not_parsed_for_it():
    from gather_lint.static.analyzer import fills_buffer

    assert fills_buffer("grid = torch.zeros(4)\nidx = (x / s).floor().long()\ngrid[idx] = w\n")
    assert not fills_buffer("idx = (x / s).floor().long()\nout = table[idx]\n")
    assert not fills_buffer("grid = torch.zeros(4)\ngrid[idx] = w\n")


# x[rows, ids] += v with rows an arange broadcast over each row: the pairs repeat where ids repeats
# within a row (static/broadcast_rows.py). `fixed` uses index_put_(..., accumulate=True).
ROW_PAIRS = [
    ("bag-of-words-counts-comment-shapes", """
        import torch

        def token_counts(tokens, vocab: int):
            # tokens: [B, T]
            counts = torch.zeros(tokens.size(0), vocab)
            rows = torch.arange(tokens.size(0))[:, None]
            counts[rows, tokens] += 1
            return counts

        tokens = torch.tensor([[1, 3, 1, 1], [0, 2, 2, 4]])
        out = token_counts(tokens, 5)
        expected = torch.stack([torch.bincount(row, minlength=5) for row in tokens]).float()
        fixed = torch.zeros(2, 5).index_put_((torch.arange(2)[:, None], tokens), torch.tensor(1.0), accumulate=True)
    """, 8),
    ("frequency-penalty-call-jaxtyping-pad-compared", """
        import torch
        from jaxtyping import Float, Int
        from torch import Tensor

        class RepetitionPenalty:
            def __init__(self, penalty: float, pad_token_id: int):
                self.penalty = penalty
                self.pad_token_id = pad_token_id

            def __call__(self, history: Int[Tensor, "batch steps"], scores: Float[Tensor, "batch vocab"]):
                rows = torch.arange(history.shape[0]).unsqueeze(1).expand_as(history)
                live = (history != self.pad_token_id).float()
                scores = scores.clone()
                scores[rows, history] -= self.penalty * live
                return scores

        history = torch.tensor([[4, 7, 4, 4, 2], [5, 5, 3, 0, 0]])
        base = torch.zeros(2, 8)
        out = RepetitionPenalty(0.5, pad_token_id=0)(history, base)
        expected = torch.stack([-0.5 * torch.bincount(row[row != 0], minlength=8).float() for row in history])
        rows = torch.arange(2).unsqueeze(1).expand_as(history)
        fixed = base.clone().index_put_((rows, history), -0.5 * (history != 0).float(), accumulate=True)
    """, 15),
    ("docstring-helper-eos-compared-view-rows", """
        import torch

        def reward_seen_tokens(logits, seqs, eos_token_id, bonus: float):
            \"\"\"Add a bonus to every token already generated, once per occurrence.

            Args:
                logits: (N, V) next-token scores.
                seqs: (N, L) generated tokens, eos-padded.
            \"\"\"
            keep = (seqs != eos_token_id).float()
            batch_rows = torch.arange(seqs.size(0)).view(-1, 1)
            boosted = logits.clone()
            boosted[batch_rows, seqs] += bonus * keep
            return boosted

        seqs = torch.tensor([[2, 2, 1, 9], [3, 1, 3, 3]])
        logits = torch.zeros(2, 10)
        out = reward_seen_tokens(logits, seqs, 9, 1.0)
        expected = torch.stack([torch.bincount(row[row != 9], minlength=10).float() for row in seqs])
        fixed = logits.clone().index_put_((torch.arange(2).view(-1, 1), seqs), (seqs != 9).float(), accumulate=True)
    """, 14),
]

ROW_PAIRS_SILENT = [
    ("plain-arange-one-label-per-row", """
        import torch

        labels = torch.tensor([2, 0, 2, 1])  # [B]
        counts = torch.zeros(4, 3)
        counts[torch.arange(4), labels] += 1
        out = counts
        expected = torch.nn.functional.one_hot(labels, 3).float()
    """),
    ("broadcast-rows-with-distinct-topk-picks", """
        import torch

        scores = torch.tensor([[0.1, 0.9, 0.5, 0.3], [0.7, 0.2, 0.8, 0.0]])  # [B, V]
        top = scores.topk(2, dim=-1).indices
        rows = torch.arange(2).unsqueeze(1).expand_as(top)
        boosted = scores.clone()
        boosted[rows, top] += 1.0
        out = boosted
        expected = scores + torch.tensor([[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 1.0, 0.0]])
    """),
    ("broadcast-rows-with-one-id-per-row", """
        import torch

        def bump(table, ids):
            # table: [B, V], ids: [B, 1]
            rows = torch.arange(table.size(0))[:, None]
            table[rows, ids] += 1
            return table

        ids = torch.tensor([[1], [1], [0]])
        out = bump(torch.zeros(3, 2), ids)
        expected = torch.tensor([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    """),
]


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in ROW_PAIRS], ids=[n for n, _, _ in ROW_PAIRS])
def test_broadcast_row_numbers_beside_repeating_ids_are_flagged(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL013", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in ROW_PAIRS], ids=[n for n, _, _ in ROW_PAIRS])
def test_torch_applies_a_pair_repeated_within_a_row_once(code, line, torch):
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"])
    assert torch.allclose(scope["fixed"], scope["expected"])


@pytest.mark.parametrize("code", [c for _, c in ROW_PAIRS_SILENT], ids=[n for n, _ in ROW_PAIRS_SILENT])
def test_row_pairs_that_cannot_repeat_are_silent(code):
    assert [f for f in lint(code) if f.code == "GL013"] == []


@pytest.mark.parametrize("code", [c for _, c in ROW_PAIRS_SILENT], ids=[n for n, _ in ROW_PAIRS_SILENT])
def test_silent_row_pairs_are_right_in_torch(code, torch):
    scope = run_snippet(code)
    assert torch.allclose(scope["out"], scope["expected"])


def test_a_name_read_inside_a_subscript_target_is_not_a_second_binding():
    """`seen[rows, ids] = 1` after `rows = ...` reads rows: its one assignment still resolves."""
    import ast

    from gather_lint.static.normalised_axis import assigned_value

    tree = ast.parse("def f(ids):\n    rows = make(ids)\n    seen[rows, ids] = 1\n    return rows\n")
    function = tree.body[0]
    assert isinstance(assigned_value(ast.Name("rows", ast.Load()), function, 4), ast.Call)
