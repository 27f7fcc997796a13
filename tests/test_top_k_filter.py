"""GL021: a top-k filter whose removal mask over sorted positions is `arange(V) > top_k` keeps
top_k + 1 tokens (static/top_k_filter.py).

Flagged snippets bind `out` (how many tokens per row survive the filter), `expected` (top_k) and
`fixed` (the count with `>= top_k`); torch must give `out != expected` and `fixed == expected`.
"""

import pytest

from .conftest import lint
from .snippets import run_snippet

FLAGGED = [
    ("docstring-function-scatter-back", """
        import torch

        def top_k_filter(logits, top_k, filter_value=-float("inf")):
            \"\"\"Keep the `top_k` highest logits of every row.

            Args:
                logits: (batch, vocab) scores.
            \"\"\"
            _, order = logits.sort(dim=-1, descending=True)
            ranks = torch.arange(logits.shape[-1]).unsqueeze(0).expand_as(logits)
            drop = ranks > top_k
            drop = drop.scatter(-1, order, drop)
            return logits.masked_fill(drop, filter_value)

        logits = torch.randn(3, 10)
        out = torch.isfinite(top_k_filter(logits, 2)).sum(-1)
        expected = torch.full((3,), 2)
        _, order = logits.sort(dim=-1, descending=True)
        ranks = torch.arange(10).unsqueeze(0).expand_as(logits)
        drop = (ranks >= 2).scatter(-1, order, ranks >= 2)
        fixed = torch.isfinite(logits.masked_fill(drop, -float("inf"))).sum(-1)
    """, 12),
    ("warper-class-call-self-top-k", """
        import torch

        class TopKWarper:
            def __init__(self, top_k: int):
                self.top_k = top_k

            def __call__(self, scores):
                sorted_scores, sorted_idx = torch.sort(scores, descending=True)
                positions = torch.arange(scores.size(-1))[None, :]
                remove = (positions > self.top_k).expand_as(scores)
                remove = remove.scatter(1, sorted_idx, remove)
                scores.masked_fill_(remove, -1e9)
                return scores

        scores = torch.randn(4, 7)
        out = (TopKWarper(3)(scores.clone()) > -1e8).sum(-1)
        expected = torch.full((4,), 3)
        sorted_scores, sorted_idx = torch.sort(scores, descending=True)
        keep_mask = (torch.arange(7)[None, :] >= 3).expand_as(scores)
        fixed = (scores.masked_fill(keep_mask.scatter(1, sorted_idx, keep_mask), -1e9) > -1e8).sum(-1)
    """, 11),
    ("script-level-topk-name", """
        import math
        import torch

        topk = 1
        logits = torch.tensor([[0.5, 3.0, 2.0, -1.0], [1.0, 0.0, 4.0, 3.5]])
        idx = logits.argsort(dim=-1, descending=True)
        pos = torch.arange(logits.size(1)).expand(logits.size(0), -1)
        cut = topk < pos
        out = torch.isfinite(logits.masked_fill(cut.scatter(1, idx, cut), -math.inf)).sum(-1)
        expected = torch.full((2,), 1)
        cut = topk <= pos
        fixed = torch.isfinite(logits.masked_fill(cut.scatter(1, idx, cut), -math.inf)).sum(-1)
    """, 9),
]

SILENT = [
    ("removal-from-position-top-k-on", """
        import torch

        def top_k_filter(logits, top_k):
            _, order = logits.sort(dim=-1, descending=True)
            ranks = torch.arange(logits.shape[-1]).expand_as(logits)
            drop = ranks >= top_k
            return logits.masked_fill(drop.scatter(-1, order, drop), float("-inf"))

        out = torch.isfinite(top_k_filter(torch.randn(2, 6), 2)).sum(-1)
        expected = torch.full((2,), 2)
    """),
    ("keep-mask-below-top-k", """
        import torch

        def top_k_filter(logits, top_k):
            _, order = logits.sort(dim=-1, descending=True)
            keep = torch.arange(logits.shape[-1]).expand_as(logits) < top_k
            keep = keep.scatter(-1, order, keep)
            return logits.masked_fill(~keep, float("-inf"))

        out = torch.isfinite(top_k_filter(torch.randn(2, 6), 3)).sum(-1)
        expected = torch.full((2,), 3)
    """),
    ("window-mask-after-position-k", """
        import torch

        def prefix_scores(scores, k):
            # scores: [B, L]; keep positions 0 .. k (k is the last prefix position)
            after = torch.arange(scores.size(-1)) > k
            return scores.masked_fill(after, float("-inf"))

        out = torch.isfinite(prefix_scores(torch.randn(2, 6), 2)).sum(-1)
        expected = torch.full((2,), 3)
    """),
]




@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_positions_past_top_k_as_removal_mask_are_flagged(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL021", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_torch_keeps_one_token_too_many_and_the_fix_keeps_top_k(code, line, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert not torch.equal(scope["out"], scope["expected"])
    assert torch.equal(scope["out"], scope["expected"] + 1)
    assert torch.equal(scope["fixed"], scope["expected"])


@pytest.mark.parametrize("code", [c for _, c in SILENT], ids=[n for n, _ in SILENT])
def test_right_top_k_masks_and_prefix_masks_are_silent(code):
    assert [f for f in lint(code) if f.code == "GL021"] == []


@pytest.mark.parametrize("code", [c for _, c in SILENT], ids=[n for n, _ in SILENT])
def test_silent_snippets_are_right_in_torch(code, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert torch.equal(scope["out"], scope["expected"])


def test_message_states_the_count_kept_and_the_fix():
    code = dict((n, c) for n, c, _ in FLAGGED)["docstring-function-scatter-back"]
    message = next(f.message for f in lint(code) if f.code == "GL021")
    assert "`ranks > top_k`" in message and "top_k + 1 tokens are kept" in message
    assert "`ranks >= top_k`" in message and "masked_fill" in message


@pytest.mark.parametrize("text,spelled", [
    ("remove = positions > top_k\n", True),
    ("remove = pos >self.topk\n", True),
    ("remove = top_k < positions\n", True),
    ("keep = top_k <= positions\n", False),  # a keep mask
    ("remove = stop_k < positions\n", False),  # another name
    ("k = top_k\n", False),
    ("x = 1\n", False),
])
def test_the_prefilter_finds_the_comparisons_it_checks(text, spelled):
    from gather_lint.static import top_k_filter
    assert top_k_filter.spelled_in(text) is spelled
