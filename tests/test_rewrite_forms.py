"""The rewrites of benchmarks/rewrite_forms.py keep what a program does, and say where its lines went."""
import pytest
import torch

from .benchmark_scripts import load

forms = load("rewrite_forms")
rewrites_script = load("rewrites")

PROGRAM = '''import torch


def pick_rows(features, class_idx):
    """Rows of a table.

    Args:
        features: (num_classes, dim) table.
    """
    scale = 2  # a plain number
    picked = torch.gather(features, 0, class_idx.unsqueeze(1))  # [K, 1]
    return picked * scale


def run():
    table = torch.ones(8, 5).cumsum(0)  # [8, 5]
    ids = torch.tensor([3, 1, 7])
    return pick_rows(table, ids)


if __name__ == "__main__":
    out = run()
    print(out.shape)
'''
FAULTY = 11


def _run(text: str):
    namespace = {"__name__": "__main__"}
    exec(compile(text, "<rewritten>", "exec"), namespace)  # the driver runs too: it must not fail
    return namespace["run"]()


@pytest.mark.parametrize("kind", sorted(forms.REWRITES))
def test_rewrite_runs_as_the_original_and_maps_the_faulty_line(kind):
    rewritten = forms.REWRITES[kind](PROGRAM, {FAULTY})
    assert rewritten is not None, f"{kind} should apply to the sample program"
    assert rewritten.text != PROGRAM
    original = _run(PROGRAM)
    now = _run(rewritten.text)
    if kind == "literal sizes":  # other sizes: the same computation on other data
        assert now.shape[1] == original.shape[1] and now.dim() == original.dim()
    else:
        assert torch.equal(now, original)
    new_line = rewritten.text.splitlines()[rewritten.lines[FAULTY] - 1]
    assert "gather" in new_line or "index_t" in new_line


def test_opaque_names_rename_comments_and_docstrings_but_not_torch_keywords():
    text = "import torch\n\ndef f(x, dim):\n    # x: [B, D]\n    return torch.gather(x, dim=dim, index=x.long())\n"
    rewritten = forms.opaque_names(text, {5}).text
    assert "# v2: [B, D]" in rewritten
    assert "torch.gather(v2, dim=v1, index=v2.long())" in rewritten


def test_edits_that_overlap_are_refused():
    with pytest.raises(ValueError):
        forms.apply("abcdef\n", [forms.Edit((1, 0), (1, 3), "x"), forms.Edit((1, 2), (1, 4), "y")], [1])


def test_a_program_without_a_guard_has_no_driver_rewrite():
    assert forms.driver_in_main("import torch\nx = torch.zeros(2)\n", {2}) is None


def test_run_program_reports_the_exception_type(tmp_path):
    (tmp_path / "bug.py").write_text("raise IndexError('x')\n")
    assert rewrites_script.run_program("raise IndexError('x')\n", str(tmp_path), "bug.py") == "IndexError"
    assert rewrites_script.run_program("print('ok')\n", str(tmp_path), "bug.py") == "ok"
