"""Advanced indexing as a site: mistakes made in plain subscripts, with no op of the family at the line.

* GL013 `x[idx] += v` / `x[rows, ids] -= v` where idx repeats: node ids of an edge list, token ids
  compared with a special token, coordinates rounded from floats shifted in a loop over literal offsets;
* GL008 `x[key]`, `x[key] = v`, `x[rows, key]` with a float key (static/advanced_index_sites.py).

Every flagged snippet runs in torch: GL013 snippets bind `out` (what the code computes), `expected`
(every value accumulated, by a plain loop) and `fixed` (the accumulating spelling), and torch must give
`out != expected` and `fixed == expected`; GL008 snippets must raise torch's IndexError at the line.
"""

import pytest

from .conftest import lint
from .snippets import SNIPPET_FILE, run_snippet

REPEATED = [
    ("edge-index-jaxtyping-degree-plain-function", """
        import torch
        from jaxtyping import Int
        from torch import Tensor

        def in_degree(edge_index: Int[Tensor, "2 num_edges"], num_nodes: int):
            src, dst = edge_index
            deg = torch.zeros(num_nodes)
            deg[dst] += 1.0
            return deg

        edge_index = torch.tensor([[0, 1, 2, 0], [1, 2, 1, 1]])
        out = in_degree(edge_index, 3)
        expected = torch.tensor([float((edge_index[1] == n).sum()) for n in range(3)])
        fixed = torch.zeros(3).index_put_((edge_index[1],), torch.ones(4), accumulate=True)
    """, 9),
    ("edge-index-rows-module-forward-messages", """
        import torch
        import torch.nn as nn

        class SumAggregation(nn.Module):
            def __init__(self, channels):
                super().__init__()
                self.lin = nn.Linear(channels, channels)

            def forward(self, x, edge_index):
                messages = self.lin(x)[edge_index[0]]
                out = torch.zeros_like(x)
                out[edge_index[1]] += messages
                return out

        torch.manual_seed(0)
        layer = SumAggregation(4)
        x = torch.randn(3, 4)
        edge_index = torch.tensor([[0, 1, 2, 2], [1, 1, 0, 1]])
        with torch.no_grad():
            out = layer(x, edge_index)
            h = layer.lin(x)
            expected = torch.stack([sum((h[s] for s, d in edge_index.t().tolist() if d == n), torch.zeros(4))
                                    for n in range(3)])
            fixed = torch.zeros(3, 4).index_add_(0, edge_index[1], h[edge_index[0]])
    """, 13),
    ("pos-edge-index-helper-called-from-driver", """
        import torch

        def weighted_degree(pos_edge_index, weights, num_nodes):
            col = pos_edge_index[1]
            deg = torch.zeros(num_nodes)
            deg[col] -= weights
            return deg

        if __name__ == "__main__":
            pos_edge_index = torch.tensor([[0, 0, 1, 2], [2, 2, 0, 2]])
            weights = torch.tensor([0.5, 1.0, 2.0, 0.25])
            out = weighted_degree(pos_edge_index, weights, 3)
            expected = -torch.tensor([sum(w for c, w in zip(pos_edge_index[1].tolist(), weights.tolist()) if c == n)
                                      for n in range(3)])
            fixed = torch.zeros(3).index_put_((pos_edge_index[1],), -weights, accumulate=True)
    """, 7),
    ("token-ids-compared-with-pad-no-shape-facts", """
        import torch

        class RepetitionCounter:
            def __init__(self, pad_token_id):
                self.pad_token_id = pad_token_id

            def __call__(self, sequences, scores):
                keep = (sequences != self.pad_token_id).float()
                rows = torch.arange(scores.size(0)).unsqueeze(1).expand_as(sequences)
                scores = scores.clone()
                scores[rows, sequences] -= 0.5 * keep
                return scores

        if __name__ == "__main__":
            seqs = torch.tensor([[3, 3, 1, 0], [2, 2, 2, 0]])
            base = torch.zeros(2, 5)
            out = RepetitionCounter(pad_token_id=0)(seqs, base)
            expected = torch.stack([-0.5 * torch.tensor([float(((s == v) & (s != 0)).sum()) for v in range(5)])
                                    for s in seqs])
            rows = torch.arange(2).unsqueeze(1).expand_as(seqs)
            fixed = base.clone().index_put_((rows, seqs), -0.5 * (seqs != 0).float(), accumulate=True)
    """, 12),
    ("token-ids-compared-with-eos-none-rows-function", """
        import torch

        def frequency_penalty(logits, out_tokens, eos_token_id, penalty):
            alive = out_tokens != eos_token_id
            logits = logits.clone()
            logits[torch.arange(logits.shape[0])[:, None], out_tokens] -= penalty * alive
            return logits

        logits = torch.zeros(2, 6)
        out_tokens = torch.tensor([[4, 4, 5], [1, 2, 1]])
        out = frequency_penalty(logits, out_tokens, 5, 1.0)
        expected = torch.stack([-torch.tensor([float(((t == v) & (t != 5)).sum()) for v in range(6)]) for t in out_tokens])
        fixed = logits.clone().index_put_((torch.arange(2)[:, None].expand(2, 3), out_tokens),
                                          -1.0 * (out_tokens != 5).float(), accumulate=True)
    """, 7),
    ("rounded-coordinates-shifted-in-loop-over-literal-offsets", """
        import torch

        def splat(points, width, height):
            grid = torch.zeros(height * width)
            xs = (points[:, 0] * (width - 1)).floor().long()
            ys = (points[:, 1] * (height - 1)).floor().long()
            for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
                cell = (ys + dy).clamp(max=height - 1) * width + (xs + dx).clamp(max=width - 1)
                grid[cell] += 0.25
            return grid.view(height, width)

        torch.manual_seed(0)
        points = torch.rand(50, 2)
        out = splat(points, 4, 3)
        xs = (points[:, 0] * 3).floor().long()
        ys = (points[:, 1] * 2).floor().long()
        cells = [((ys + dy).clamp(max=2) * 4 + (xs + dx).clamp(max=3)) for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1))]
        expected = torch.tensor([0.25 * sum(float((c == k).sum()) for c in cells) for k in range(12)]).view(3, 4)
        fixed = torch.zeros(12)
        for c in cells:
            fixed.index_put_((c,), torch.full((50,), 0.25), accumulate=True)
        fixed = fixed.view(3, 4)
    """, 10),
    ("histogram-bins-offset-loop-method", """
        import torch

        class TimeHistogram:
            def __init__(self, num_bins):
                self.num_bins = num_bins

            def accumulate(self, stamps, weights):
                hist = torch.zeros(self.num_bins + 1)
                base = (stamps * (self.num_bins - 1)).long()
                frac = stamps * (self.num_bins - 1) - base
                for k, share in ((0, 1.0 - frac), (1, frac)):
                    hist[base + k] += weights * share
                return hist

        stamps = torch.tensor([0.1, 0.12, 0.5, 0.55, 0.9])
        weights = torch.ones(5)
        out = TimeHistogram(4).accumulate(stamps, weights)
        base = (stamps * 3).long()
        frac = stamps * 3 - base
        expected = torch.zeros(5)
        for i in range(5):
            expected[base[i]] += 1.0 - frac[i]
            expected[base[i] + 1] += frac[i]
        fixed = torch.zeros(5).index_add_(0, base, 1.0 - frac).index_add_(0, base + 1, frac)
    """, 13),
]

REPEATED_SILENT = [
    ("edge-index-accumulated-with-index-add", """
        import torch

        def in_degree(edge_index, num_nodes):
            deg = torch.zeros(num_nodes)
            deg.index_add_(0, edge_index[1], torch.ones(edge_index.size(1)))
            return deg
    """),
    ("unique-nodes-of-edge-index", """
        import torch

        def touch(edge_index, num_nodes):
            seen = torch.zeros(num_nodes)
            nodes = torch.unique(edge_index)
            seen[nodes] += 1.0
            return seen
    """),
    ("edge-index-mask-assignment", """
        import torch

        def has_edge(edge_index, num_nodes):
            mask = torch.zeros(num_nodes, dtype=torch.bool)
            mask[edge_index[0]] = True
            return mask
    """),
    ("one-int-token-compared-with-eos", """
        import torch

        def count_last(counts, token, eos_token_id):
            if token != eos_token_id:
                counts[token] += 1
            return counts
    """),
    ("literal-offsets-with-arange-positions", """
        import torch

        def shift_add(x, n):
            out = torch.zeros(n + 2)
            for k in (0, 1):
                out[torch.arange(n) + k] += x
            return out
    """),
    ("ids-compared-with-pad-but-plain-arange-rows", """
        import torch

        def pick_bonus(scores, labels, pad_token_id):
            valid = labels != pad_token_id
            scores[torch.arange(scores.size(0)), labels] += valid.float()
            return scores
    """),
]




@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in REPEATED], ids=[n for n, _, _ in REPEATED])
def test_repeating_positions_in_augmented_subscript_are_flagged(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL013", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in REPEATED], ids=[n for n, _, _ in REPEATED])
def test_torch_applies_a_repeated_position_once_and_accumulate_is_right(code, line, torch):
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"])
    assert torch.allclose(scope["fixed"], scope["expected"], atol=1e-5)


@pytest.mark.parametrize("code", [c for _, c in REPEATED_SILENT], ids=[n for n, _ in REPEATED_SILENT])
def test_distinct_or_accumulated_positions_are_not_flagged(code):
    assert [f for f in lint(code) if f.code == "GL013"] == []


# GL008: float keys. Every snippet is a script (float keys are looked for in scripts, and in any block
# parsed for another reason); torch must raise IndexError at the flagged line.
FLOAT_KEYS = [
    ("true-division-midpoint-beside-arange-comment-shapes", """
        import torch

        def middle_states(hidden, lengths):
            # hidden: [B, T, D], lengths: [B]
            middle = lengths / 2
            return hidden[torch.arange(hidden.size(0)), middle]

        if __name__ == "__main__":
            states = middle_states(torch.randn(2, 6, 3), torch.tensor([4, 6]))
    """, 7),
    ("float-cast-positions-module-forward", """
        import torch
        import torch.nn as nn

        class LastStatePooler(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.proj = nn.Linear(dim, dim)

            def forward(self, states, mask):
                last = (mask.sum(dim=1) - 1).float()
                picked = states[torch.arange(states.shape[0]), last]
                return self.proj(picked)

        if __name__ == "__main__":
            pooler = LastStatePooler(4)
            out = pooler(torch.randn(3, 5, 4), torch.ones(3, 5, dtype=torch.long))
    """, 12),
    ("float-array-ids-through-helper-jaxtyping", """
        import numpy as np
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def update_rows(state: Float[Tensor, "n d"], rows, delta: Float[Tensor, "k d"]):
            state = state.clone()
            state[rows] = state[rows] + delta
            return state

        def observed_rows(table):
            return torch.from_numpy(table[:, 0])

        if __name__ == "__main__":
            table = np.array([[0.0, 1.5], [2.0, 0.5]])
            rows = observed_rows(table)
            out = update_rows(torch.zeros(4, 2), rows, torch.ones(2, 2))
    """, 9),
    ("mean-of-positions-stored-into", """
        import torch

        def mark_centres(canvas, spans):
            centre = spans.float().mean(dim=1)
            canvas[centre] = 1.0
            return canvas

        if __name__ == "__main__":
            out = mark_centres(torch.zeros(10), torch.tensor([[2, 4], [6, 8]]))
    """, 6),
    ("half-scaled-key-in-augmented-update-docstring", """
        import torch

        def bump(scores, rows, cols):
            \"\"\"scores: (B, N) float; rows, cols: (K,) int64\"\"\"
            halved = cols * 0.5
            scores[rows, halved] += 1.0
            return scores

        if __name__ == "__main__":
            out = bump(torch.zeros(2, 4), torch.tensor([0, 1]), torch.tensor([2, 2]))
    """, 7),
]

FLOAT_KEYS += [
    ("float-ids-from-numpy-table-read-in-forward", """
        import numpy as np
        import torch
        import torch.nn as nn

        class RowReader(nn.Module):
            def forward(self, states, row_ids):
                picked = states[row_ids]
                return picked.sum(dim=0)

        def load_ids(table):
            return torch.tensor(table[:, 0])

        if __name__ == "__main__":
            table = np.array([[1.0, 0.2], [0.0, 0.7]])
            RowReader()(torch.randn(3, 4), load_ids(table))
    """, 8),
    ("linspace-frame-positions", """
        import torch

        def sample_frames(video, num_frames):
            # video: [T, C, H, W]
            positions = torch.linspace(0, video.shape[0] - 1, num_frames)
            return video[positions]

        if __name__ == "__main__":
            sample_frames(torch.randn(16, 3, 4, 4), 4)
    """, 7),
    ("full-of-a-float-tensors-item", """
        import torch

        def schedule_at(alpha_bar, t):
            return alpha_bar[t]

        def sample(alpha_bar, batch):
            steps = torch.linspace(alpha_bar.numel() - 1, 0, 4).round()
            for step in steps:
                t = torch.full((batch,), step.item())
                schedule_at(alpha_bar, t)

        if __name__ == "__main__":
            sample(torch.rand(10), 2)
    """, 5),
]

FLOAT_KEYS_SILENT = [
    ("full-of-an-int-tensors-item-and-a-bool-fill", """
        import torch

        def schedule_at(alpha_bar, t, keep):
            return alpha_bar[t][keep]

        def sample(alpha_bar, batch):
            steps = torch.linspace(alpha_bar.numel() - 1, 0, 4).round().long()
            for step in steps:
                t = torch.full((batch,), step.item())
                schedule_at(alpha_bar, t, torch.full((batch,), True))

        if __name__ == "__main__":
            sample(torch.rand(10), 2)
    """),
    ("floor-division", """
        import torch

        def middle(hidden, lengths):
            return hidden[torch.arange(hidden.size(0)), lengths // 2]

        if __name__ == "__main__":
            middle(torch.randn(2, 6, 3), torch.tensor([4, 6]))
    """),
    ("division-cast-back-to-long", """
        import torch

        def middle(hidden, lengths):
            mid = (lengths / 2).long()
            return hidden[torch.arange(hidden.size(0)), mid]

        if __name__ == "__main__":
            middle(torch.randn(2, 6, 3), torch.tensor([4, 6]))
    """),
    ("division-reassigned-as-int", """
        import torch

        def centre(x, n):
            mid = n / 2
            mid = int(mid)
            return x[mid]

        if __name__ == "__main__":
            centre(torch.randn(5), 5)
    """),
    ("python-int-of-division", """
        import math
        import torch

        def centre(x, n):
            return x[int(n / 2)], x[math.floor(n / 2)], x[round(n / 2)]

        if __name__ == "__main__":
            centre(torch.randn(5), 5)
    """),
    ("dict-keyed-by-float-times", """
        import torch

        def lookup(frames, t, dt):
            cache = {}
            step = t / dt
            cache[step] = torch.zeros(3)
            return cache[step]

        if __name__ == "__main__":
            lookup(None, 1.0, 0.5)
    """),
    ("untracked-container-divided-key", """
        import torch

        def ratio_entry(series, a, b):
            key = a / b
            return series[key]

        if __name__ == "__main__":
            ratio_entry({0.5: torch.zeros(1)}, 1, 2)
    """),
    ("division-in-a-slice", """
        import torch

        def head(x, n):
            half = n // 2
            scale = n / 2
            return x[:half] * scale

        if __name__ == "__main__":
            head(torch.randn(6), 6)
    """),
]


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLOAT_KEYS], ids=[n for n, _, _ in FLOAT_KEYS])
def test_float_keys_are_flagged(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL008", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLOAT_KEYS], ids=[n for n, _, _ in FLOAT_KEYS])
def test_torch_raises_index_error_at_the_float_key(code, line, torch):
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool") as raised:
        run_snippet(code)
    frames = [tb.tb_lineno for tb in _frames(raised.value.__traceback__) if tb.tb_frame.f_code.co_filename == SNIPPET_FILE]
    assert frames and frames[-1] == line


def _frames(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


@pytest.mark.parametrize("code", [c for _, c in FLOAT_KEYS_SILENT], ids=[n for n, _ in FLOAT_KEYS_SILENT])
def test_integer_keys_and_float_keyed_containers_are_not_flagged(code, torch):
    assert [f for f in lint(code) if f.code == "GL008"] == []
    run_snippet(code)  # and torch accepts them


def test_float_keys_are_looked_for_in_scripts_only():
    from gather_lint.static.analyzer import mentions_op

    library = "import torch\n\ndef f(x, n):\n    mid = n / 2\n    return x[mid]\n"
    assert not mentions_op(library)
    assert mentions_op(library + "\nif __name__ == \"__main__\":\n    f(torch.zeros(4), 4)\n")


# GL003: `x[idx] = v` with v of a shape that cannot broadcast to the selection x[idx]; torch raises.
WRITE_SHAPES = [
    ("constructors-rows-for-more-ids-than-values", """
        import torch

        def place(canvas_rows, dim):
            canvas = torch.zeros(canvas_rows, dim)
            ids = torch.randint(0, canvas_rows, (5,))
            patches = torch.randn(4, dim)
            canvas[ids] = patches
            return canvas

        if __name__ == "__main__":
            place(10, 16)
    """, 8),
    ("module-forward-memory-slots-from-driver", """
        import torch
        import torch.nn as nn

        class SlotMemory(nn.Module):
            def __init__(self, slots, width):
                super().__init__()
                self.register_buffer("memory", torch.zeros(slots, width))

            def forward(self, slot_ids, updates):
                memory = self.memory.clone()
                memory[slot_ids] = updates
                return memory

        if __name__ == "__main__":
            layer = SlotMemory(12, 8)
            out = layer(torch.tensor([0, 3, 5, 7, 9, 11]), torch.randn(4, 8))
    """, 12),
    ("comment-shapes-pair-index-write-width-mismatch", """
        import torch

        def write_pairs(grid, colours):
            # grid: [6, 7, 3], colours: [4, 2]
            rows = torch.arange(4)
            cols = torch.randint(0, 7, (4,))
            grid[rows, cols] = colours
            return grid

        if __name__ == "__main__":
            write_pairs(torch.zeros(6, 7, 3), torch.rand(4, 2))
    """, 8),
]

WRITE_SHAPES_SILENT = [
    ("broadcast-row-and-scalar-values", """
        import torch

        def fill(canvas_rows, dim):
            canvas = torch.zeros(canvas_rows, dim)
            ids = torch.tensor([1, 4, 6])
            canvas[ids] = torch.randn(1, dim)
            canvas[ids] = torch.randn(dim)
            canvas[ids] = 0.5
            canvas[ids] = torch.randn(3, 1)
            canvas[ids] = torch.randn(3, dim)
            return canvas

        if __name__ == "__main__":
            fill(10, 16)
    """),
    ("mask-selects-an-unknown-count", """
        import torch

        def fill(embeds, token_ids, image_feats, image_token_id):
            mask = token_ids == image_token_id
            embeds[mask] = image_feats
            return embeds

        if __name__ == "__main__":
            ids = torch.tensor([[5, 7, 7, 2]])
            fill(torch.zeros(1, 4, 8), ids, torch.randn(2, 8), 7)
    """),
    ("named-sizes-of-unknown-value", """
        import torch

        def scatter_rows(table, ids, rows):
            # table: [N, D], ids: [K], rows: [M, D]
            table[ids] = rows
            return table

        if __name__ == "__main__":
            scatter_rows(torch.zeros(9, 4), torch.tensor([1, 2]), torch.randn(2, 4))
    """),
]


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in WRITE_SHAPES], ids=[n for n, _, _ in WRITE_SHAPES])
def test_values_that_cannot_fill_the_selection_are_flagged(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL003", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in WRITE_SHAPES], ids=[n for n, _, _ in WRITE_SHAPES])
def test_torch_raises_shape_mismatch_at_the_write(code, line, torch):
    with pytest.raises(RuntimeError, match="shape mismatch: value tensor of shape") as raised:
        run_snippet(code)
    frames = [tb.tb_lineno for tb in _frames(raised.value.__traceback__) if tb.tb_frame.f_code.co_filename == SNIPPET_FILE]
    assert frames and frames[-1] == line


@pytest.mark.parametrize("code", [c for _, c in WRITE_SHAPES_SILENT], ids=[n for n, _ in WRITE_SHAPES_SILENT])
def test_values_that_fill_the_selection_are_not_flagged(code, torch):
    assert [f for f in lint(code) if f.code == "GL003"] == []
    run_snippet(code)


# GL017 (error): `x[rows, idx]` whose index tensors cannot broadcast (one row number per row beside
# several picks per row); torch raises IndexError.
UNBROADCASTABLE = [
    ("arange-rows-beside-topk-picks-comment-shapes", """
        import torch

        def top_logprobs(logprobs, k):
            # logprobs: [B, V]
            top = logprobs.topk(k, dim=-1).indices  # [B, k]
            return logprobs[torch.arange(logprobs.size(0)), top]

        if __name__ == "__main__":
            top_logprobs(torch.randn(4, 10).log_softmax(-1), 3)
    """, 7),
    ("module-forward-candidate-scores", """
        import torch
        import torch.nn as nn

        class CandidateScorer(nn.Module):
            def __init__(self, dim, items):
                super().__init__()
                self.out = nn.Linear(dim, items)

            def forward(self, user, candidates):
                scores = self.out(user)
                batch = torch.arange(user.shape[0])
                return scores[batch, candidates]

        if __name__ == "__main__":
            model = CandidateScorer(8, 50)
            model(torch.randn(6, 8), torch.randint(0, 50, (6, 5)))
    """, 13),
    ("helper-with-index-first-and-row-numbers-second", """
        import torch

        def pick(table, picks, rows):
            return table[picks, rows]

        def driver():
            table = torch.randn(7, 3)
            picks = torch.randint(0, 7, (3, 2))
            return pick(table, picks, torch.arange(3))

        if __name__ == "__main__":
            driver()
    """, 5),
    # row numbers taken from the sequence dim of a batch-first [B x S x H] tensor, beside one position per
    # row: the two named dims of the tensor indexed broadcast only where B happens to equal S
    ("row-numbers-from-the-other-named-dim-docstring", """
        import torch

        def last_pooling(data, padding_mask):
            \"\"\"
            data : torch.Tensor
                The input data, as a tensor of shape [B x S x H]
            padding_mask : torch.Tensor
                The input mask, as a tensor of shape [B x S]
            \"\"\"
            lengths = padding_mask.long().sum(dim=1)
            return data[torch.arange(data.size(1)).long(), lengths - 1, :]

        if __name__ == "__main__":
            last_pooling(torch.randn(4, 7, 3), torch.ones(4, 7))
    """, 12),
    # the same under a guard for a missing mask, which the caller's mask decides
    ("row-numbers-from-the-other-dim-mask-guarded", """
        import torch

        def last_pooling(data, padding_mask=None):
            if padding_mask is None:
                lengths = torch.tensor([data.size(0)] * data.size(1)).long()
            else:
                lengths = padding_mask.long().sum(dim=1)
            return data[torch.arange(data.size(1)), lengths - 1]

        if __name__ == "__main__":
            last_pooling(torch.randn(4, 7, 3), torch.ones(4, 7))
    """, 9),
]

UNBROADCASTABLE_SILENT = [
    ("row-numbers-of-a-square-table", """
        import torch

        def nearest_distance(dist, nearest):
            # dist: [N, N], nearest: [N]
            return dist[torch.arange(dist.size(1)), nearest.long()]

        if __name__ == "__main__":
            nearest_distance(torch.rand(5, 5), torch.randint(0, 5, (5,)))
    """),
    ("row-numbers-from-the-batch-dim", """
        import torch

        def last_pooling(data, padding_mask):
            # data: [B, S, H], padding_mask: [B, S]
            lengths = padding_mask.long().sum(dim=1)
            return data[torch.arange(data.size(0)), lengths - 1]

        if __name__ == "__main__":
            last_pooling(torch.randn(4, 7, 3), torch.ones(4, 7))
    """),
    ("row-numbers-with-a-trailing-dim", """
        import torch

        def top_logprobs(logprobs, k):
            top = logprobs.topk(k, dim=-1).indices
            return logprobs[torch.arange(logprobs.size(0))[:, None], top]

        if __name__ == "__main__":
            top_logprobs(torch.randn(4, 10).log_softmax(-1), 3)
    """),
    ("one-pick-per-row", """
        import torch

        def chosen(logprobs, actions):
            return logprobs[torch.arange(logprobs.size(0)), actions]

        if __name__ == "__main__":
            chosen(torch.randn(4, 10), torch.randint(0, 10, (4,)))
    """),
    ("sizes-known-by-name-only", """
        import torch

        def chosen(logprobs, picks):
            # logprobs: [B, V], picks: [B, K]
            rows = torch.arange(logprobs.size(0))
            return logprobs[rows.unsqueeze(1), picks]
    """),
]


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in UNBROADCASTABLE], ids=[n for n, _, _ in UNBROADCASTABLE])
def test_unbroadcastable_index_tensors_are_flagged(code, line):
    found = [(f.code, f.line, f.severity) for f in lint(code)]
    assert ("GL017", line, "error") in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in UNBROADCASTABLE], ids=[n for n, _, _ in UNBROADCASTABLE])
def test_torch_raises_when_index_tensors_cannot_broadcast(code, line, torch):
    with pytest.raises(IndexError, match="indexing tensors could not be broadcast together") as raised:
        run_snippet(code)
    frames = [tb.tb_lineno for tb in _frames(raised.value.__traceback__) if tb.tb_frame.f_code.co_filename == SNIPPET_FILE]
    assert frames and frames[-1] == line


@pytest.mark.parametrize("code", [c for _, c in UNBROADCASTABLE_SILENT], ids=[n for n, _ in UNBROADCASTABLE_SILENT])
def test_broadcastable_index_tensors_are_not_flagged(code, torch):
    assert [f for f in lint(code) if f.code == "GL017"] == []
    run_snippet(code)


# A driver's list of (x, y) batches carries its tensors into the loop that unpacks it (`for x, y in
# batches`), so a per-row pick written as `out[:, y]` (GL017) is seen with the batch's shapes.
BATCH_LOOPS = [
    ("plain-function-loop-over-driver-batches", """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        def mean_true_class_logprob(net, batches):
            picked = []
            for feats, labels in batches:
                logp = F.log_softmax(net(feats), dim=-1)
                picked.append(logp[:, labels])
            return torch.cat(picked).mean()

        if __name__ == "__main__":
            torch.manual_seed(0)
            net = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 3))
            batches = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(2)]
            out = mean_true_class_logprob(net, batches)
            expected = torch.cat([F.log_softmax(net(x), -1).gather(1, y[:, None]).squeeze(1) for x, y in batches]).mean()
    """, 10),
    ("method-loop-over-loader-list", """
        import torch
        import torch.nn as nn

        class Evaluator:
            def __init__(self, model):
                self.model = model

            def chosen_scores(self, loader):
                total = 0.0
                for inputs, actions in loader:
                    q = self.model(inputs)
                    total = total + q[:, actions].sum()
                return total

        if __name__ == "__main__":
            torch.manual_seed(0)
            model = nn.Linear(5, 4)
            loader = [(torch.randn(6, 5), torch.randint(0, 4, (6,))) for _ in range(3)]
            out = Evaluator(model).chosen_scores(loader)
            expected = sum(model(x).gather(1, a[:, None]).sum() for x, a in loader)
    """, 13),
]


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in BATCH_LOOPS], ids=[n for n, _, _ in BATCH_LOOPS])
def test_per_row_picks_in_a_loop_over_batches_are_flagged(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL017", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in BATCH_LOOPS], ids=[n for n, _, _ in BATCH_LOOPS])
def test_torch_crosses_rows_with_picks_in_the_batch_loop(code, line, torch):
    with torch.no_grad():
        scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"])


def test_a_list_of_batches_with_column_subsets_is_not_flagged():
    code = """
        import torch
        import torch.nn as nn

        def kept_columns(net, batches):
            outs = []
            for x, keep in batches:
                outs.append(net(x)[:, keep])
            return outs

        if __name__ == "__main__":
            net = nn.Linear(4, 10)
            batches = [(torch.randn(3, 4), torch.tensor([0, 2, 5, 7])) for _ in range(2)]
            kept_columns(net, batches)
    """
    assert [f for f in lint(code) if f.code == "GL017"] == []


# GL013: a loop over groups (experts, classes) writing each group's rows into one buffer, with rows
# in several groups (`(topk_idx == e).any(-1)`): the later group overwrites the earlier one.
GROUP_WRITES = [
    ("moe-forward-masked-scatter-comment-shapes", """
        import torch
        import torch.nn as nn

        class TopTwoMixture(nn.Module):
            def __init__(self, dim, n_experts):
                super().__init__()
                self.gate = nn.Linear(dim, n_experts)
                self.experts = nn.ModuleList([nn.Linear(dim, dim) for _ in range(n_experts)])

            def forward(self, x):
                # x: [N, D]
                weights, chosen = self.gate(x).softmax(-1).topk(2, dim=-1)  # [N, 2]
                combined = torch.zeros_like(x)
                for e, expert in enumerate(self.experts):
                    routed = (chosen == e).any(dim=-1)  # [N]
                    w = (weights * (chosen == e)).sum(-1)[routed].unsqueeze(1)
                    combined.masked_scatter_(routed.unsqueeze(-1), expert(x[routed]) * w)
                return combined

        if __name__ == "__main__":
            torch.manual_seed(0)
            moe = TopTwoMixture(4, 3)
            x = torch.randn(6, 4)
            with torch.no_grad():
                out = moe(x)
                weights, chosen = moe.gate(x).softmax(-1).topk(2, dim=-1)
                expected = sum(weights[:, k:k + 1] * torch.stack([moe.experts[c](x[n]) for n, c in enumerate(chosen[:, k].tolist())])
                               for k in range(2))
    """, 18),
    ("plain-function-mask-assign-per-expert", """
        import torch

        def combine(tokens, experts, topk_idx, topk_w):
            # tokens: [T, D], topk_idx / topk_w: [T, K]
            out = torch.zeros_like(tokens)
            for idx in range(len(experts)):
                hit = (topk_idx == idx).any(-1)
                gate = (topk_w * (topk_idx == idx)).sum(-1, keepdim=True)
                out[hit] = experts[idx](tokens[hit]) * gate[hit]
            return out

        if __name__ == "__main__":
            torch.manual_seed(0)
            experts = [torch.nn.Linear(3, 3) for _ in range(4)]
            tokens = torch.randn(5, 3)
            topk_w, topk_idx = torch.rand(5, 4).topk(2, dim=-1)
            with torch.no_grad():
                out = combine(tokens, experts, topk_idx, topk_w)
                expected = torch.stack([sum(topk_w[t, k] * experts[topk_idx[t, k]](tokens[t]) for k in range(2))
                                        for t in range(5)])
    """, 10),
]

GROUP_WRITES_SILENT = [
    ("accumulated-per-expert", """
        import torch

        def combine(tokens, experts, topk_idx, topk_w):
            out = torch.zeros_like(tokens)
            for idx in range(len(experts)):
                hit = (topk_idx == idx).any(-1)
                gate = (topk_w * (topk_idx == idx)).sum(-1, keepdim=True)
                out[hit] += experts[idx](tokens[hit]) * gate[hit]
            return out
    """),
    ("top-one-routing-each-row-in-one-group", """
        import torch

        def combine(tokens, experts, expert_of):
            out = torch.zeros_like(tokens)
            for idx in range(len(experts)):
                hit = expert_of == idx
                out[hit] = experts[idx](tokens[hit])
            return out
    """),
    ("buffer-rebuilt-each-iteration", """
        import torch

        def per_expert(tokens, experts, topk_idx):
            results = []
            for idx in range(len(experts)):
                out = torch.zeros_like(tokens)
                hit = (topk_idx == idx).any(-1)
                out[hit] = experts[idx](tokens[hit])
                results.append(out)
            return results
    """),
]


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in GROUP_WRITES], ids=[n for n, _, _ in GROUP_WRITES])
def test_group_writes_with_rows_in_several_groups_are_flagged(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL013", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in GROUP_WRITES], ids=[n for n, _, _ in GROUP_WRITES])
def test_torch_keeps_only_the_last_group_of_a_row(code, line, torch):
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"], atol=1e-5)


@pytest.mark.parametrize("code", [c for _, c in GROUP_WRITES_SILENT], ids=[n for n, _ in GROUP_WRITES_SILENT])
def test_group_writes_that_add_or_do_not_overlap_are_not_flagged(code):
    assert [f for f in lint(code) if f.code == "GL013"] == []



def test_row_numbers_beside_another_index_are_checked_without_a_driver():
    """A library module has no driver: the key of row numbers beside another index admits the function to an
    analysis of its own, with its declared shapes."""
    code = dict((n, c) for n, c, _ in UNBROADCASTABLE)["row-numbers-from-the-other-named-dim-docstring"]
    library = code[:code.index("if __name__")]
    assert [(f.code, f.line) for f in lint(library)] == [("GL017", 12)]
