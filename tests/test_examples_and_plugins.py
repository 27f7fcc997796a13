"""The bundled examples through the CLI, the flake8 plugin and the pre-commit hook."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "gather_lint", *args], cwd=cwd, capture_output=True, text=True)


def test_examples_each_buggy_function_reported_once_and_clean_ones_silent():
    out = cli("--format", "concise", "examples/")
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    files = [l.split(":")[0] for l in lines]
    assert all(f.startswith("examples/buggy/") for f in files)
    counts = {os.path.basename(f): files.count(f) for f in set(files)}
    assert counts == {"beam_search.py": 1, "class_prototypes.py": 1, "dqn_loss.py": 1, "per_token_logps.py": 1,
                      "segment_sum.py": 1, "sequence_scores.py": 1, "topk_patches.py": 2, "notebook_lookup.ipynb": 1,
                      "policy_loss.py": 1}
    found = {(os.path.basename(l.split(":")[0]), l.split(": ")[1].split()[0]) for l in lines}
    assert found == {("beam_search.py", "GL008"), ("class_prototypes.py", "GL005"), ("dqn_loss.py", "GL001"),
                     ("per_token_logps.py", "GL004"), ("segment_sum.py", "GL009"), ("sequence_scores.py", "GL001"),
                     ("topk_patches.py", "GL005"), ("topk_patches.py", "GL004"), ("notebook_lookup.ipynb", "GL005"),
                     ("policy_loss.py", "GL006")}
    assert "`.expand(-1, features.size(1))`" in out.stdout


def test_every_reported_line_is_the_call_marked_bug():
    for line in cli("--format", "concise", "examples/").stdout.splitlines():
        path, lineno = line.split(":")[:2]
        if path.endswith(".ipynb"):
            continue  # notebook positions are per cell: see test_notebook_example
        source = (ROOT / path).read_text().splitlines()
        text = source[int(lineno) - 1]
        assert any(op in text for op in ("gather", "scatter")) or " GL006 " in line, line
        context = source[max(0, int(lineno) - 4):int(lineno)]
        assert any("Bug" in c for c in context), line


def test_flake8_reports_the_same_findings_at_the_same_positions():
    pytest.importorskip("flake8")
    ours = [l for l in cli("--format", "concise", "examples/").stdout.splitlines() if ".ipynb:" not in l]  # flake8 reads .py only
    flake = subprocess.run([sys.executable, "-m", "flake8", "--select=GL", "examples/"], cwd=ROOT,
                           capture_output=True, text=True)
    assert flake.returncode == 1, flake.stderr
    assert sorted(flake.stdout.splitlines()) == sorted(ours)


def test_flake8_honours_noqa_and_ignore(tmp_path):
    pytest.importorskip("flake8")
    (tmp_path / "f.py").write_text("import torch\nx = torch.randn(2, 3)\n"
                                   "a = x.gather(1, torch.zeros(2, 1))  # noqa: GL008\n"
                                   "b = x.gather(1, torch.zeros(2, 1))\n")
    out = subprocess.run([sys.executable, "-m", "flake8", "--select=GL", str(tmp_path)], capture_output=True, text=True)
    assert out.stdout.count("GL008") == 1 and ":4:" in out.stdout


@pytest.mark.skipif(shutil.which("pre-commit") is None and os.environ.get("CI") is None, reason="pre-commit not installed")
def test_pre_commit_try_repo(tmp_path):
    work = tmp_path / "user-repo"
    work.mkdir()
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    git = lambda *a: subprocess.run(["git", *a], cwd=work, check=True, capture_output=True, env=env)
    git("init", "-q")
    (work / "loss.py").write_text((EXAMPLES / "buggy" / "dqn_loss.py").read_text())
    shutil.copy(EXAMPLES / "buggy" / "notebook_lookup.ipynb", work / "lookup.ipynb")
    git("add", "loss.py", "lookup.ipynb")
    # try-repo sees only committed files: give it a committed snapshot of this project
    hook_repo = tmp_path / "hook-repo"
    shutil.copytree(ROOT, hook_repo, ignore=shutil.ignore_patterns(
        ".git", "corpus", "__pycache__", ".gather_lint_cache", "*.egg-info", ".pytest_cache", "build"))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "snapshot"]):
        subprocess.run(["git", *args], cwd=hook_repo, check=True, capture_output=True, env=env)
    hook = [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), "gather-lint"]
    buggy = subprocess.run(hook, cwd=work, capture_output=True, text=True, env=env)
    assert buggy.returncode == 1, buggy.stdout + buggy.stderr
    assert "GL001" in buggy.stdout
    assert "lookup.ipynb:cell 3:3:17: GL005" in buggy.stdout  # notebooks are linted too
    assert "Found" not in buggy.stdout + buggy.stderr  # no summary per batch of files
    git("commit", "-qm", "x", "--no-verify")
    empty = subprocess.run(hook, cwd=work, capture_output=True, text=True, env=env)
    assert empty.returncode == 0, empty.stdout + empty.stderr


def test_notebook_example_reports_cell_and_line_and_fix_keeps_outputs(tmp_path):
    import json

    out = cli("examples/buggy/notebook_lookup.ipynb")
    assert out.stdout.startswith("examples/buggy/notebook_lookup.ipynb:cell 3:3:17: GL005")
    assert cli("examples/buggy/notebook_lookup.ipynb").stdout == out.stdout  # from the cache
    copy = tmp_path / "nb.ipynb"
    shutil.copy(EXAMPLES / "buggy" / "notebook_lookup.ipynb", copy)
    fixed = cli("--fix", "--unsafe-fixes", str(copy))
    assert fixed.returncode == 0
    before = json.loads((EXAMPLES / "buggy" / "notebook_lookup.ipynb").read_text())
    after = json.loads(copy.read_text())
    assert after["cells"][2]["source"][2] == "rows = features.gather(0, idx.unsqueeze(1).expand(-1, features.size(1)))\n"
    for key in ("metadata", "nbformat"):
        assert before[key] == after[key]
    assert [c.get("outputs") for c in before["cells"]] == [c.get("outputs") for c in after["cells"]]
    assert before["cells"][1] == after["cells"][1]
