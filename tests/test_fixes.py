"""Fixes, checked by torch: every rule's bad example fixed through `gather-lint --fix` gives its good
example's result, and so does every shape/dim variant each fix handles; where the intent cannot be
told from the shapes, no fix is offered."""
import os
import textwrap

import pytest

from gather_lint import cli, fixes
from gather_lint.findings import Edit
from gather_lint.rules import RULES_BY_CODE

from .conftest import lint
from .test_rule_examples import CASES, IDS, run, same


def fix_with_cli(tmp_path, source: str, unsafe: bool) -> str:
    target = tmp_path / "snippet.py"
    target.write_text(textwrap.dedent(source))
    argv = ["--fix", "--isolated", "--quiet", str(target)] + (["--unsafe-fixes"] if unsafe else [])
    cli.main(argv)
    return target.read_text()


# examples whose fix the rule does not offer, and why (the rule's FIX_NOTE says so)
NOT_FIXED = {("GL004", 1): "the dim alone would not make the call right: the index also needs reshaping",
             ("GL013", 1): "a buffer filled by scatter: the rule names scatter_add but rewrites only += forms",
             ("GL033", 2): "which reduction scatter_reduce should do is the author's call",
             ("GL033", 3): "scatter_add_ or scatter_reduce_ with 'sum': the op to call instead is the author's call",
             ("GL009", 1): "the tensor written is larger than index and src alike: how to build them per row is the "
                           "author's call"}


@pytest.mark.parametrize("code,i,example", CASES, ids=IDS)
def test_every_bad_example_fixed_by_the_cli_gives_the_good_result_in_torch(code, i, example, tmp_path, capsys, torch):
    rule = RULES_BY_CODE[code]
    if rule.FIX is None:
        assert not any(f.fix for f in lint(example.bad)), f"{code} offers a fix but says it has none"
        assert "No automatic fix" in open(f"rules/{code}.md").read()
        return
    if (code, i) in NOT_FIXED:
        assert not any(f.fix for f in lint(example.bad) if f.code == code), "now fixed: test it below"
        return
    fixed = fix_with_cli(tmp_path, example.bad, unsafe=rule.FIX == "unsafe")
    assert code not in [f.code for f in lint(fixed)], fixed
    torch.manual_seed(i)
    scope = run(fixed)
    assert same(scope["out"], scope["expected"]), fixed


# (id, code, source defining `out` and `expected`, text the fix must write)
VARIANTS = [
    ("GL001-per-position-last-dim", "GL001", """
        import torch
        q = torch.randn(8, 4)  # [B, A]
        a = torch.randint(4, (8,))
        out = q.gather(1, a)
        expected = torch.stack([q[b, a[b]] for b in range(8)])
        """, "q.gather(1, a.unsqueeze(1)).squeeze(1)"),
    ("GL001-per-position-negative-dim-3d", "GL001", """
        import torch
        lp = torch.randn(2, 5, 7)  # [B, L, V]
        ids = torch.randint(7, (2, 5))
        out = torch.gather(lp, -1, ids)
        expected = torch.stack([torch.stack([lp[b, t, ids[b, t]] for t in range(5)]) for b in range(2)])
        """, "torch.gather(lp, -1, ids.unsqueeze(2)).squeeze(2)"),
    ("GL001-rows-dim-0", "GL001", """
        import torch
        x = torch.randn(10, 4)  # [N, D]
        idx = torch.randint(10, (3,))
        out = x.gather(0, idx)
        expected = torch.stack([x[i] for i in idx])
        """, "idx.unsqueeze(-1).expand(-1, x.size(1))"),
    ("GL001-rows-keywords", "GL001", """
        import torch
        x = torch.randn(10, 4)  # [N, D]
        idx = torch.randint(10, (3,))
        out = torch.gather(x, dim=0, index=idx)
        expected = torch.stack([x[i] for i in idx])
        """, "index=idx.unsqueeze(-1).expand(-1, x.size(1))"),
    ("GL001-rows-3d", "GL001", """
        import torch
        x = torch.randn(2, 6, 3)  # [B, N, D]
        idx = torch.randint(6, (2, 4))
        out = x.gather(1, idx)
        expected = torch.stack([x[b, idx[b]] for b in range(2)])
        """, "idx.unsqueeze(-1).expand(-1, -1, x.size(2))"),
    ("GL001-take-along-per-position", "GL001", """
        import torch
        q = torch.randn(8, 4)  # [B, A]
        a = torch.randint(4, (8,))
        out = torch.take_along_dim(q, a, dim=1)
        expected = torch.stack([q[b, a[b]] for b in range(8)])
        """, "torch.take_along_dim(q, a.unsqueeze(1), dim=1).squeeze(1)"),
    ("GL001-take-along-rows", "GL001", """
        import torch
        x = torch.randn(10, 4)  # [N, D]
        idx = torch.randint(10, (3,))
        out = torch.take_along_dim(x, idx, dim=0)
        expected = torch.stack([x[i] for i in idx])
        """, "torch.take_along_dim(x, idx.unsqueeze(-1), dim=0)"),
    ("GL001-one-hot-scatter-of-a-number", "GL001", """
        import torch
        labels = torch.randint(5, (2, 3, 4))  # [B, H, W]
        out = torch.zeros(2, 5, 3, 4).scatter_(1, labels, 1.0)
        expected = torch.nn.functional.one_hot(labels, 5).permute(0, 3, 1, 2).float()
        """, "scatter_(1, labels.unsqueeze(1), 1.0)"),
    ("GL001-one-hot-scatter-value-keyword", "GL001", """
        import torch
        labels = torch.randint(6, (7,))
        out = torch.zeros(7, 6).scatter(1, labels, value=1)
        expected = torch.nn.functional.one_hot(labels, 6).float()
        """, "scatter(1, labels.unsqueeze(1), value=1)"),
    ("GL004-index-from-seq-dim", "GL004", """
        import torch
        lp = torch.randn(3, 6, 11).log_softmax(-1)  # [B, L, V]
        input_ids = torch.randint(11, (3, 6))
        out = lp.gather(1, input_ids.unsqueeze(-1)).squeeze(-1)
        expected = torch.stack([torch.stack([lp[b, t, input_ids[b, t]] for t in range(6)]) for b in range(3)])
        """, "lp.gather(2, input_ids.unsqueeze(-1))"),
    ("GL005-column-of-rows", "GL005", """
        import torch
        x = torch.randn(10, 5)  # [N, D]
        idx = torch.tensor([[3], [1], [4]])
        out = x.gather(0, idx)
        expected = torch.stack([x[i] for i in idx[:, 0]])
        """, "x.gather(0, idx.expand(-1, x.size(1)))"),
    ("GL005-row-of-columns", "GL005", """
        import torch
        x = torch.randn(4, 10)  # [N, D]
        idx = torch.tensor([[3, 1, 7]])
        out = x.gather(1, idx)
        expected = x[:, idx[0]]
        """, "x.gather(1, idx.expand(x.size(0), -1))"),
    ("GL005-non-atom-index", "GL005", """
        import torch
        x = torch.randn(10, 5)  # [N, D]
        ids = torch.tensor([3, 1, 4])
        out = x.gather(0, ids[:, None] + 0)
        expected = torch.stack([x[i] for i in ids])
        """, "x.gather(0, (ids[:, None] + 0).expand(-1, x.size(1)))"),
    ("GL006-squeeze-at-the-gather", "GL006", """
        import torch
        lp = torch.randn(1, 4, 9).log_softmax(-1)  # [B, L, V]
        ids = torch.randint(9, (1, 4))
        adv = torch.randn(1, 4)  # [B, L]
        picked = lp.gather(-1, ids.unsqueeze(-1))
        out = adv * picked
        expected = torch.stack([adv[0, t] * lp[0, t, ids[0, t]] for t in range(4)]).unsqueeze(0)
        """, "picked = lp.gather(-1, ids.unsqueeze(-1)).squeeze(-1)"),  # GL006 is reported on the gather
    ("GL006-squeeze-without-a-dim", "GL006", """
        import torch
        lp = torch.randn(1, 5, 10).log_softmax(-1)  # [B, L, V]
        ids = torch.randint(10, (1, 5))
        out = lp.gather(-1, ids.unsqueeze(-1)).squeeze()
        expected = torch.stack([lp[0, t, ids[0, t]] for t in range(5)]).unsqueeze(0)
        """, "out = lp.gather(-1, ids.unsqueeze(-1)).squeeze(-1)"),
    ("GL008-true-division-at-its-line", "GL008", """
        import torch
        scores = torch.randn(3, 4)  # [B, N]
        flat = torch.randint(16, (3, 4))
        idx = flat / 4
        out = scores.gather(1, idx)
        expected = torch.stack([torch.stack([scores[b, int(flat[b, k]) // 4] for k in range(4)]) for b in range(3)])
        """, "idx = flat // 4"),
    ("GL008-int32-for-take-along-dim", "GL008", """
        import torch
        x = torch.randn(4, 6)  # [B, N]
        idx = torch.randint(6, (4, 2), dtype=torch.int32)
        out = torch.take_along_dim(x, idx, dim=1)
        expected = torch.stack([x[b, idx[b].long()] for b in range(4)])
        """, "torch.take_along_dim(x, idx.long(), dim=1)"),
    ("GL008-division-in-the-caller", "GL008", """
        import torch
        def reorder(state, beam):
            return state.gather(1, beam)
        scores = torch.randn(3, 4)  # [B, N]
        flat = torch.randint(16, (3, 4))
        beam = flat / 4
        word = flat - beam * 4
        out = torch.stack([reorder(scores, beam).float(), word.float()])
        expected = torch.stack([scores.gather(1, flat // 4), (flat % 4).float()])
        """, "beam = flat // 4"),
    ("GL013-subtract-a-tensor", "GL013", """
        import torch
        ids = torch.tensor([2, 0, 2, 2])
        w = torch.tensor([1.0, 2.0, 3.0, 4.0])
        x = torch.zeros(3)
        x[ids] -= w
        out = x
        expected = -torch.stack([w[ids == k].sum() for k in range(3)])
        """, "x.index_put_((ids,), (-w).to(x.dtype), accumulate=True)"),
    ("GL013-subtract-a-number", "GL013", """
        import torch
        input_ids = torch.tensor([3, 1, 3, 3, 0])
        budget = torch.full((5,), 10.0)
        budget[input_ids] -= 1
        out = budget
        expected = 10.0 - torch.bincount(input_ids, minlength=5).float()
        """, "budget.index_put_((input_ids,), budget.new_tensor(-1), accumulate=True)"),
    ("GL013-rows-of-a-matrix", "GL013", """
        import torch
        ids = torch.tensor([1, 1, 0])
        grads = torch.randn(3, 4)  # [K, D]
        table = torch.zeros(2, 4)  # [V, D]
        table[ids] += grads
        out = table
        expected = torch.stack([grads[ids == v].sum(0) for v in range(2)])
        """, "table.index_put_((ids,), grads.to(table.dtype), accumulate=True)"),
    ("GL013-read-modify-write", "GL013", """
        import torch
        input_ids = torch.tensor([3, 1, 3, 3, 0])
        counts = torch.zeros(5)
        counts[input_ids] = counts[input_ids] + 1
        out = counts
        expected = torch.bincount(input_ids, minlength=5).float()
        """, "counts.index_put_((input_ids,), counts.new_tensor(1), accumulate=True)"),
    ("GL013-integer-counts", "GL013", """
        import torch
        input_ids = torch.tensor([3, 1, 3, 3, 0])
        counts = torch.zeros(5, dtype=torch.long)
        counts[input_ids] += 1
        out = counts
        expected = torch.bincount(input_ids, minlength=5)
        """, "counts.index_put_((input_ids,), counts.new_tensor(1), accumulate=True)"),
    ("GL014-amax", "GL014", """
        import torch
        values = torch.tensor([-2.0, -4.0, -6.0])
        segment = torch.tensor([0, 0, 1])
        out = torch.zeros(2).scatter_reduce(0, segment, values, "amax")
        expected = torch.stack([values[segment == s].max() for s in range(2)])
        """, 'scatter_reduce(0, segment, values, "amax", include_self=False)'),
    ("GL014-include-self-given-true", "GL014", """
        import torch
        values = torch.tensor([2.0, 4.0, 6.0])
        segment = torch.tensor([0, 0, 1])
        out = torch.zeros(2).scatter_reduce(0, segment, values, reduce="mean", include_self=True)
        expected = torch.stack([values[segment == s].mean() for s in range(2)])
        """, 'reduce="mean", include_self=False)'),
    ("GL015-to-bfloat16", "GL015", """
        import torch
        table = torch.randn(5000, 8)  # [V, D]
        ids = torch.tensor([[3001], [4097]])
        buffered = ids.to(torch.bfloat16)
        out = table.gather(0, buffered.long().expand(-1, 8))
        expected = table[ids[:, 0]]
        """, "buffered = ids.to(torch.float64)"),
    ("GL004-index-select", "GL004", """
        import torch
        emb = torch.randn(11, 3)  # [V, D]
        input_ids = torch.randint(11, (5,))
        out = emb.index_select(1, input_ids)
        expected = torch.stack([emb[i] for i in input_ids])
        """, "emb.index_select(0, input_ids)"),
    ("GL006-augmented-assignment", "GL006", """
        import torch
        lp = torch.randn(1, 4, 9).log_softmax(-1)  # [B, L, V]
        ids = torch.randint(9, (1, 4))
        total = torch.zeros(1, 4)  # [B, L]
        picked = lp.gather(-1, ids.unsqueeze(-1))
        total += picked
        out = total
        expected = torch.stack([lp[0, t, ids[0, t]] for t in range(4)]).unsqueeze(0)
        """, "picked = lp.gather(-1, ids.unsqueeze(-1)).squeeze(-1)"),
    ("GL008-division-inside-the-call", "GL008", """
        import torch
        scores = torch.randn(3, 4)  # [B, N]
        flat = torch.randint(16, (3, 4))
        out = scores.gather(1, flat / 4)
        expected = torch.stack([torch.stack([scores[b, int(flat[b, k]) // 4] for k in range(4)]) for b in range(3)])
        """, "scores.gather(1, flat // 4)"),
    ("GL014-functional-prod", "GL014", """
        import torch
        values = torch.tensor([2.0, 4.0, 6.0])
        segment = torch.tensor([0, 0, 1])
        buf = torch.zeros(2)
        out = torch.scatter_reduce(buf, 0, segment, values, "prod")
        expected = torch.stack([values[segment == s].prod() for s in range(2)])
        """, 'torch.scatter_reduce(buf, 0, segment, values, "prod", include_self=False)'),
    ("GL015-bfloat16-method", "GL015", """
        import torch
        table = torch.randn(5000, 8)  # [V, D]
        ids = torch.tensor([[3001], [4097]])
        buffered = ids.bfloat16()
        out = table.gather(0, buffered.long().expand(-1, 8))
        expected = table[ids[:, 0]]
        """, "buffered = ids.double()"),
    ("GL009-row-index-expanded-over-rows", "GL009", """
        import torch
        src = torch.randn(4, 6)  # [N, K]
        idx = torch.tensor([[0, 2, 2, 4, 1, 0]])
        out = torch.zeros(4, 5).scatter_add(1, idx, src)
        expected = torch.stack([torch.stack([src[r, idx[0] == c].sum() for c in range(5)]) for r in range(4)])
        """, "scatter_add(1, idx.expand(src.size(0), -1), src)"),
    ("GL013-scatter-read-modify-write", "GL013", """
        import torch
        x = torch.zeros(3, 2)  # [N, D]
        ids = torch.tensor([[2, 0], [2, 2], [1, 2], [2, 0]])
        v = torch.randn(4, 2)
        out = x.scatter_(0, ids, x.gather(0, ids) + v)
        expected = torch.stack([torch.stack([v[ids[:, d] == n, d].sum() for d in range(2)]) for n in range(3)])
        """, "out = x.scatter_add_(0, ids, v)"),
    ("GL013-index-copy-read-modify-write", "GL013", """
        import torch
        x = torch.zeros(3, 2)  # [N, D]
        ids = torch.tensor([2, 0, 2, 2])
        v = torch.randn(4, 2)
        out = x.index_copy_(0, ids, x.index_select(0, ids) - v)
        expected = -torch.stack([v[ids == k].sum(0) for k in range(3)])
        """, "out = x.index_add_(0, ids, -v)"),
]


@pytest.mark.parametrize("name,code,source,written", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_fix_variant_gives_the_intended_result_in_torch(name, code, source, written, tmp_path, capsys, torch):
    source = textwrap.dedent(source)
    assert code in [f.code for f in lint(source)], "the variant must be flagged"
    torch.manual_seed(0)
    try:
        before = run(source)
        assert not same(before["out"], before["expected"]), "the variant must be wrong before the fix"
    except (RuntimeError, IndexError):
        pass  # torch raises: the variant is wrong before the fix
    fixed = fix_with_cli(tmp_path, source, unsafe=RULES_BY_CODE[code].FIX == "unsafe")
    assert written in fixed, fixed
    assert code not in [f.code for f in lint(fixed)], fixed
    torch.manual_seed(0)
    scope = run(fixed)
    assert same(scope["out"], scope["expected"]), fixed


# (id, source): flagged, but the shapes do not say what was meant, so no fix is offered
NO_FIX = [
    ("GL001-rows-or-per-column", """
        import torch
        x = torch.randn(5, 4)  # [N, D]
        idx = torch.randint(5, (4,))
        out = x.gather(0, idx)
        """),
    ("GL001-neither-reading", """
        import torch
        x = torch.randn(2, 6, 3)  # [B, N, D]
        idx = torch.randint(3, (5, 2))
        out = x.gather(2, idx)
        """),
    ("GL001-index-select-matrix", """
        import torch
        x = torch.randn(10, 4)
        idx = torch.randint(10, (3, 2))
        out = x.index_select(0, idx)
        """),
    ("GL013-increment-of-unknown-type", """
        import torch
        def f(step):
            ids = torch.randint(5, (8,))
            counts = torch.zeros(5)
            counts[ids] += step
            return counts
        """),
    ("GL013-scatter-with-a-number", """
        import torch
        x = torch.zeros(3, 2)  # [N, D]
        ids = torch.randint(3, (4, 2))
        out = x.scatter_(0, ids, x.gather(0, ids) + 1)
        """),
    ("GL008-bool-mask-index", """
        import torch
        x = torch.randn(4, 3)
        keep = x > 0
        out = x.gather(1, keep)
        """),
    ("GL005-unsqueezed-at-the-wrong-dim", """
        import torch
        def gold_prob(probs, labels):
            \"\"\"probs: (batch, num_classes); labels: (batch,)\"\"\"
            return probs.gather(1, labels.unsqueeze(0)).squeeze(0)
        p = gold_prob(torch.randn(4, 3).softmax(-1), torch.randint(3, (4,)))
        """),
    ("GL009-unsqueezed-at-the-wrong-dim", """
        import torch
        src = torch.randn(3, 4)  # [N, C]
        cls = torch.randint(4, (3,))
        out = torch.zeros(3, 4).scatter_add(1, cls.unsqueeze(0), src)
        """),
    ("GL001-scatter-of-a-tensor", """
        import torch
        x = torch.zeros(2, 16, 8, 8)
        labels = torch.randint(16, (2, 8, 8))
        x.scatter_(1, labels, torch.ones(2, 8, 8))
        """),
    ("GL008-float-literal-division", """
        import torch
        scores = torch.randn(3, 4)  # [B, N]
        flat = torch.randint(16, (3, 4))
        idx = flat / 4.0
        words = flat - idx * 4
        out = scores.gather(1, idx)
        """),
]


@pytest.mark.parametrize("name,source", NO_FIX, ids=[n for n, _ in NO_FIX])
def test_no_fix_where_the_intent_is_not_certain(name, source, tmp_path, capsys):
    code = name.split("-")[0]
    found = [f for f in lint(source) if f.code == code]
    assert found
    # no fix offered
    assert fix_with_cli(tmp_path, source, unsafe=True) == textwrap.dedent(source)
    assert code in [f.code for f in lint(source)]


def test_multi_line_calls_keep_their_layout_and_comments(tmp_path, capsys):
    source = textwrap.dedent("""\
        import torch
        features = torch.randn(10, 128)  # [N, D]
        class_idx = torch.tensor([3, 1, 4])
        rows = torch.gather(
            features,  # the table
            0,
            class_idx.unsqueeze(1),  # one row per class
        )
        values = torch.tensor([2.0, 4.0, 6.0])
        segment = torch.tensor([0, 0, 1])
        means = torch.zeros(2).scatter_reduce(
            0,
            segment,
            values,
            reduce="mean",  # per segment
        )
        """)
    fixed = fix_with_cli(tmp_path, source, unsafe=True)
    assert fixed == textwrap.dedent("""\
        import torch
        features = torch.randn(10, 128)  # [N, D]
        class_idx = torch.tensor([3, 1, 4])
        rows = torch.gather(
            features,  # the table
            0,
            class_idx.unsqueeze(1).expand(-1, features.size(1)),  # one row per class
        )
        values = torch.tensor([2.0, 4.0, 6.0])
        segment = torch.tensor([0, 0, 1])
        means = torch.zeros(2).scatter_reduce(
            0,
            segment,
            values,
            reduce="mean",  # per segment
            include_self=False,
        )
        """)


def test_keyword_after_a_last_argument_without_trailing_comma(tmp_path, capsys):
    source = textwrap.dedent("""\
        import torch
        values = torch.tensor([2.0, 4.0, 6.0])
        segment = torch.tensor([0, 0, 1])
        means = torch.zeros(2).scatter_reduce(0, segment,
                                              values, reduce="mean")
        """)
    fixed = fix_with_cli(tmp_path, source, unsafe=True)
    assert 'values, reduce="mean", include_self=False)' in fixed


def test_a_fix_that_would_not_remove_its_finding_is_not_applied():
    source = textwrap.dedent(CASES[IDS.index("GL004-0")][2].bad)
    finding = next(f for f in lint(source) if f.code == "GL004")
    dim = finding.fix[0]
    same_dim = finding.__class__(**{**finding.__dict__, "fix": (dim._replace(text="-2"),)})  # leaves the call as it is
    fixed, done = fixes.apply(source, [same_dim], unsafe=True)
    assert (fixed, done) == (source, [])
    fixed, done = fixes.apply(source, [finding], unsafe=True)
    assert done == [finding] and "gather(-1," in fixed


def test_a_fix_that_adds_a_finding_is_not_applied():
    source = "import torch\nx = torch.randn(2, 3)\nout = x.gather(1, torch.zeros(2, 1))\n"
    finding = next(f for f in lint(source) if f.code == "GL008")
    # a .long() that also reads the wrong dim: GL008 goes, but a GL002 comes
    edit = finding.fix[0]
    worse = finding.__class__(**{**finding.__dict__, "fix": (edit, Edit(3, 16, 3, 17, "5", "replace"))})
    assert fixes.apply(source, [worse], unsafe=True) == (source, [])


def test_unparsable_code_is_left_alone():
    good = "import torch\nx = torch.randn(2, 3).gather(1, torch.zeros(2, 1))\n"
    findings = lint(good)
    assert fixes.apply(good, findings)[1]  # the fix applies to the code it was found in
    broken = good + "def f(:\n"
    assert fixes.apply(broken, findings) == (broken, [])


UNSAFE_ONLY = "import torch\nx = torch.randn(10, 128)  # [N, D]\nrows = x.gather(0, torch.tensor([[1], [2]]))\n"


def test_diff_headers_name_absolute_paths_without_a_double_slash(tmp_path, capsys):
    target = tmp_path / "x.py"
    target.write_text(UNSAFE_ONLY)
    cli.main(["--diff", "--unsafe-fixes", "--isolated", str(target)])
    out = capsys.readouterr().out
    shown = str(target).lstrip("/")
    assert f"--- a/{shown}\n+++ b/{shown}\n" in out and "a//" not in out


def test_diff_headers_are_relative_inside_the_current_directory(tmp_path, capsys, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "x.py").write_text(UNSAFE_ONLY)
    monkeypatch.chdir(tmp_path)
    cli.main(["--diff", "--unsafe-fixes", "--isolated", str(tmp_path / "pkg" / "x.py")])
    assert "--- a/pkg/x.py\n+++ b/pkg/x.py\n" in capsys.readouterr().out


def test_diff_with_only_unsafe_fixes_says_they_were_held_back(tmp_path, capsys):
    target = tmp_path / "x.py"
    target.write_text(UNSAFE_ONLY)
    assert cli.main(["--diff", "--isolated", str(target)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "0 files would be changed. 1 finding has an unsafe fix held back; add --unsafe-fixes" in captured.err


def test_fix_with_only_unsafe_fixes_says_they_were_held_back(tmp_path, capsys):
    target = tmp_path / "x.py"
    target.write_text(UNSAFE_ONLY + "y = torch.randn(4, 3).gather(1, torch.tensor([0, 1, 2, 0]))\n")
    assert cli.main(["--fix", "--isolated", str(target)]) == 1
    err = capsys.readouterr().err
    assert "Fixed 0 files; 2 problems left. 2 findings have an unsafe fix held back; add --unsafe-fixes" in err
    assert target.read_text().endswith("torch.tensor([0, 1, 2, 0]))\n")
    assert cli.main(["--fix", "--unsafe-fixes", "--isolated", str(target)]) == 0
    assert "Fixed 1 file; 0 problems left.\n" in capsys.readouterr().err


def test_nothing_held_back_means_no_note(tmp_path, capsys):
    target = tmp_path / "x.py"
    target.write_text("import torch\nx = torch.randn(2, 3).gather(1, torch.zeros(2, 1))\n")
    cli.main(["--fix", "--isolated", str(target)])
    assert capsys.readouterr().err.strip() == "Fixed 1 file; 0 problems left."


def test_plain_linting_imports_neither_libcst_nor_torch(tmp_path):
    import subprocess
    import sys

    (tmp_path / "bug.py").write_text(UNSAFE_ONLY)
    script = ("import sys, gather_lint.cli as c\n"
              "for fmt in ('text', 'json', 'sarif', 'github'):\n"
              f"    c.main(['--isolated', '--no-cache', '--format', fmt, {str(tmp_path)!r}])\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('libcst', 'torch')))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stderr


def test_the_codemod_runs_under_libcst_tool(tmp_path, torch):
    import os
    import subprocess
    import sys

    target = tmp_path / "counts.py"
    target.write_text(textwrap.dedent(CASES[IDS.index("GL013-0")][2].bad))
    ignored = tmp_path / "ignored.py"  # the project's settings hold for the codemod too
    ignored.write_text(target.read_text())
    (tmp_path / "pyproject.toml").write_text('[tool.gather-lint]\nper-file-ignores = { "ignored.py" = ["GL013"] }\n')
    command = [sys.executable, "-m", "libcst.tool", "codemod", "--no-format", "-x",
               "gather_lint.codemods.command.GatherLintFixes", "--unsafe-fixes", str(target), str(ignored)]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH"))))}
    proc = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    fixed = target.read_text()
    assert "counts.index_put_((input_ids,), counts.new_tensor(1), accumulate=True)" in fixed
    assert "Transformed 1 files successfully" in proc.stderr and "Skipped 1 files" in proc.stderr
    assert ignored.read_text() == textwrap.dedent(CASES[IDS.index("GL013-0")][2].bad)
    scope = run(fixed)
    assert same(scope["out"], scope["expected"])


def test_notebook_cells_are_fixed_with_the_state_of_earlier_cells(tmp_path, capsys, torch):
    import json

    cells = [
        "import torch\nfeatures = torch.randn(10, 128)  # [N, D]\nclass_idx = torch.tensor([3, 1, 4])\n",
        "%matplotlib inline\nrows = torch.gather(features, 0, class_idx.unsqueeze(1))\n!ls\n",
    ]
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                           "source": c.splitlines(keepends=True)} for c in cells],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    target = tmp_path / "nb.ipynb"
    target.write_text(json.dumps(notebook, indent=1) + "\n")
    assert cli.main(["--fix", "--unsafe-fixes", "--isolated", str(target)]) == 0
    fixed = json.loads(target.read_text())
    assert fixed["cells"][0]["source"] == notebook["cells"][0]["source"]
    assert "".join(fixed["cells"][1]["source"]) == (
        "%matplotlib inline\nrows = torch.gather(features, 0, class_idx.unsqueeze(1).expand(-1, features.size(1)))\n!ls\n")
    scope = run(cells[0] + "".join(fixed["cells"][1]["source"][1:2]))
    assert torch.equal(scope["rows"], scope["features"][scope["class_idx"]])


def test_each_rule_names_the_codemods_of_its_fix_and_they_apply_it_alone(torch):
    import libcst as cst
    from libcst.codemod import CodemodContext

    from gather_lint.codemods.registry import BY_KIND, load

    for code, i, example in CASES:
        rule = RULES_BY_CODE[code]
        assert bool(rule.FIX) == bool(getattr(rule, "FIX_CODEMODS", ())), code
        source = textwrap.dedent(example.bad)
        for f in lint(source):
            if f.code != code or not f.fix:
                continue
            named = [load(path) for path in rule.FIX_CODEMODS]
            assert {BY_KIND[e.kind] for e in f.fix} <= set(named), (code, f.fix)
            kinds = {BY_KIND[e.kind] for e in f.fix}
            if len(kinds) == 1:  # the rule's codemod on its own, as libcst users would run it
                command = kinds.pop()(CodemodContext(), f.fix)
                alone = command.transform_module(cst.parse_module(source)).code
                assert alone == fixes.apply(source, [f], unsafe=True)[0], (code, i)


def test_a_file_that_cannot_be_written_is_an_error_not_a_traceback(tmp_path, capsys, monkeypatch):
    target = tmp_path / "x.py"
    source = "import torch\nx = torch.randn(2, 3).gather(1, torch.zeros(2, 1))\n"
    target.write_text(source)
    from gather_lint import files

    def read_only(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files, "write_whole", read_only)  # the CLI reads it from the module when it fixes
    assert cli.main(["--fix", "--isolated", str(target)]) == 1
    err = capsys.readouterr().err
    assert "cannot write the fixes (Permission denied)" in err and "Fixed 0 files; 1 problem left." in err
    assert target.read_text() == source


def test_a_file_that_may_not_be_written_is_not_replaced(tmp_path, monkeypatch):
    from gather_lint import files

    target = tmp_path / "x.py"
    target.write_text("before\n")
    monkeypatch.setattr(files.os, "access", lambda *args, **kwargs: False)  # read-only (root may write any file)
    with pytest.raises(PermissionError):
        files.write_whole(str(target), b"after\n")
    monkeypatch.undo()
    assert target.read_text() == "before\n" and os.listdir(tmp_path) == ["x.py"]


def test_a_write_cut_short_leaves_the_file_whole_and_no_scratch_file(tmp_path, capsys, monkeypatch):
    from gather_lint import files

    target = tmp_path / "x.py"
    source = "import torch\nx = torch.randn(2, 3).gather(1, torch.zeros(2, 1))\n"
    target.write_text(source)

    def interrupted(*args, **kwargs):  # Ctrl-C between writing the new bytes and putting them in place
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.write_whole(str(target), b"half")
    assert target.read_text() == source and os.listdir(tmp_path) == ["x.py"]


def test_fix_keeps_the_file_mode_and_writes_through_a_link(tmp_path, capsys):
    real = tmp_path / "real.py"
    real.write_text("import torch\nx = torch.randn(2, 3).gather(1, torch.zeros(2, 1))\n")
    os.chmod(real, 0o750)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    assert cli.main(["--fix", "--isolated", str(link)]) == 0
    assert link.is_symlink() and "torch.zeros(2, 1).long()" in real.read_text()
    assert (os.stat(real).st_mode & 0o777) == 0o750


def test_without_libcst_fixing_is_a_clear_error_and_linting_still_works(tmp_path):
    import subprocess
    import sys

    target = tmp_path / "x.py"
    target.write_text("import torch\nx = torch.randn(2, 3).gather(1, torch.zeros(2, 1))\n")
    script = ("import sys; sys.modules['libcst'] = None\n"  # what a --no-deps install without libcst sees
              "from gather_lint.cli import main\n"
              f"print(main(['--isolated', '--no-cache', {str(target)!r}]), main(['--fix', '--isolated', {str(target)!r}]))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.stdout.strip().splitlines()[-1] == "1 2"
    assert "fixing needs libcst" in proc.stderr and "pip install libcst" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_fixes_on_the_same_node_are_applied_in_rounds(tmp_path, capsys, torch):
    source = "import torch\nx = torch.randn(10, 128)  # [N, D]\nout = x.gather(0, torch.zeros(3, 1))\n"
    assert sorted(f.code for f in lint(source)) == ["GL005", "GL008"]
    fixed = fix_with_cli(tmp_path, source, unsafe=True)
    assert "x.gather(0, torch.zeros(3, 1).expand(-1, x.size(1)).long())" in fixed
    scope = run(fixed)
    assert torch.equal(scope["out"], scope["x"][[0, 0, 0]])


def test_one_rejected_fix_does_not_hold_back_the_others():
    source = textwrap.dedent("""\
        import torch
        x = torch.randn(2, 3)
        a = x.gather(1, torch.zeros(2, 1))
        b = x.gather(1, torch.ones(2, 1))
        """)
    first, second = [f for f in lint(source) if f.code == "GL008"]
    bogus = first.__class__(**{**first.__dict__, "fix": (first.fix[0]._replace(text=".float()"),)})
    fixed, done = fixes.apply(source, [bogus, second])
    assert done[0] == second and bogus not in done
    assert ".float()" not in fixed and "torch.ones(2, 1).long())" in fixed
    # the next round re-lints and fixes the first call with its own (real) fix
    assert "torch.zeros(2, 1).long())" in fixed


def test_no_expand_fix_when_per_sample_labels_lost_their_batch(tmp_path):
    # an action from argmax over the whole tensor is one value for the batch: copying it to every
    # row (the expand) is not what was meant, so GL005 is reported without a fix
    from .conftest import lint

    code = """
    import torch
    def chosen_q(q_values, actions):
        # q_values: [B, A]
        # actions: [1]
        return q_values.gather(1, actions.unsqueeze(1))
    """
    found = [f for f in lint(code) if f.code == "GL005"]
    assert found and found[0].fix is None


def test_a_helper_is_not_edited_for_one_callers_facts():
    # the helper serves every call: a `.long()` inside it would hide a float index the caller keeps
    # using (a real beam search feeds the same pointers to a second gather), so no fix is offered there
    from .conftest import lint

    code = """
    import torch
    def pick(x, ids):
        return x.index_select(0, ids)

    def step(scores, k):
        flat = torch.topk(scores.view(-1), k).indices
        back = torch.div(flat, 5)
        return pick(scores, back), back
    """
    found = [f for f in lint(code) if f.code == "GL008"]
    assert found and all(f.fix is None for f in found)
