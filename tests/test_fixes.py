"""Fixes, checked by torch: every rule's bad example fixed through `gather-lint --fix` gives its good
example's result, and so does every shape/dim variant each fix handles; where the intent cannot be
told from the shapes, no fix is offered."""
import textwrap

import pytest

from gather_lint import cli, fixes
from gather_lint.findings import Edit
from gather_lint.rules import ALL_RULES, RULES_BY_CODE

from .conftest import lint
from .test_rule_examples import CASES, IDS, run, same


def fix_with_cli(tmp_path, source: str, unsafe: bool) -> str:
    target = tmp_path / "snippet.py"
    target.write_text(textwrap.dedent(source))
    argv = ["--fix", "--isolated", "--quiet", str(target)] + (["--unsafe-fixes"] if unsafe else [])
    cli.main(argv)
    return target.read_text()


# examples whose fix the rule does not offer, and why (the rule's FIX_NOTE says so)
NOT_FIXED = {("GL004", 1): "the dim alone would not make the call right: the index also needs reshaping"}


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
        """, "idx.unsqueeze(-1).expand(-1, 4)"),
    ("GL001-rows-keywords", "GL001", """
        import torch
        x = torch.randn(10, 4)  # [N, D]
        idx = torch.randint(10, (3,))
        out = torch.gather(x, dim=0, index=idx)
        expected = torch.stack([x[i] for i in idx])
        """, "index=idx.unsqueeze(-1).expand(-1, 4)"),
    ("GL001-rows-3d", "GL001", """
        import torch
        x = torch.randn(2, 6, 3)  # [B, N, D]
        idx = torch.randint(6, (2, 4))
        out = x.gather(1, idx)
        expected = torch.stack([x[b, idx[b]] for b in range(2)])
        """, "idx.unsqueeze(-1).expand(-1, -1, 3)"),
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
        """, "x.gather(0, idx.expand(-1, 5))"),
    ("GL005-row-of-columns", "GL005", """
        import torch
        x = torch.randn(4, 10)  # [N, D]
        idx = torch.tensor([[3, 1, 7]])
        out = x.gather(1, idx)
        expected = x[:, idx[0]]
        """, "x.gather(1, idx.expand(4, -1))"),
    ("GL005-non-atom-index", "GL005", """
        import torch
        x = torch.randn(10, 5)  # [N, D]
        ids = torch.tensor([3, 1, 4])
        out = x.gather(0, ids[:, None] + 0)
        expected = torch.stack([x[i] for i in ids])
        """, "x.gather(0, (ids[:, None] + 0).expand(-1, 5))"),
    ("GL006-squeeze-right-operand", "GL006", """
        import torch
        lp = torch.randn(1, 4, 9).log_softmax(-1)  # [B, L, V]
        ids = torch.randint(9, (1, 4))
        adv = torch.randn(1, 4)  # [B, L]
        picked = lp.gather(-1, ids.unsqueeze(-1))
        out = adv * picked
        expected = torch.stack([adv[0, t] * lp[0, t, ids[0, t]] for t in range(4)]).unsqueeze(0)
        """, "adv * picked.squeeze(-1)"),
    ("GL008-true-division-at-its-line", "GL008", """
        import torch
        scores = torch.randn(3, 4)  # [B, N]
        flat = torch.randint(16, (3, 4))
        idx = flat / 4
        out = scores.gather(1, idx)
        expected = torch.stack([torch.stack([scores[b, int(flat[b, k]) // 4] for k in range(4)]) for b in range(3)])
        """, "idx = flat // 4"),
    ("GL008-float-literal-division-gets-long", "GL008", """
        import torch
        scores = torch.randn(3, 4)  # [B, N]
        flat = torch.randint(16, (3, 4))
        idx = flat / 4.0
        out = scores.gather(1, idx)
        expected = torch.stack([torch.stack([scores[b, int(flat[b, k]) // 4] for k in range(4)]) for b in range(3)])
        """, "scores.gather(1, idx.long())"),
    ("GL013-subtract-a-tensor", "GL013", """
        import torch
        ids = torch.tensor([2, 0, 2, 2])
        w = torch.tensor([1.0, 2.0, 3.0, 4.0])
        x = torch.zeros(3)
        x[ids] -= w
        out = x
        expected = -torch.stack([w[ids == k].sum() for k in range(3)])
        """, "x.index_put_((ids,), (-w).to(x.dtype), accumulate=True)"),
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
