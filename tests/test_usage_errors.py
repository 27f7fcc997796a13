"""Mistakes a new user makes on the command line get a clear message and exit 2, never a wrong summary."""
import subprocess
import sys

import pytest

BUG = "import torch\nq = torch.randn(4, 3)\npicked = q.gather(1, torch.tensor([0, 1, 2, 0]))\n"


def run(*args, cwd=None):
    proc = subprocess.run([sys.executable, "-m", "gather_lint", *args], cwd=cwd, capture_output=True, text=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.mark.parametrize("flag", ["--select", "--ignore", "--extend-select"])
def test_a_code_that_matches_no_rule_is_an_error(tmp_path, flag):
    (tmp_path / "bug.py").write_text(BUG)
    out = run(flag, "GL99", str(tmp_path))
    assert out.returncode == 2 and out.stdout == ""
    assert "'GL99' matches no gather-lint code" in out.stderr and "No problems" not in out.stderr
    assert run(flag, "GL01", str(tmp_path)).returncode != 2  # a real prefix (GL010-GL015) is fine


@pytest.mark.parametrize("key", ["select", "ignore", "extend-select", "extend-ignore"])
def test_a_config_code_that_matches_no_rule_is_an_error(tmp_path, key):
    (tmp_path / "bug.py").write_text(BUG)
    (tmp_path / "pyproject.toml").write_text(f"[tool.gather-lint]\n{key} = ['GL99']\n")
    out = run(str(tmp_path))
    assert out.returncode == 2 and f"'{key}' has 'GL99'" in out.stderr and "pyproject.toml" in out.stderr


def test_a_per_file_ignore_that_matches_no_rule_is_an_error(tmp_path):
    (tmp_path / "bug.py").write_text(BUG)
    (tmp_path / "pyproject.toml").write_text("[tool.gather-lint]\nper-file-ignores = { 'tests/*' = ['GL500'] }\n")
    out = run(str(tmp_path))
    assert out.returncode == 2 and "'GL500', which matches no gather-lint code" in out.stderr


def test_a_missing_path_alone_is_an_error_without_a_summary(tmp_path):
    out = run(str(tmp_path / "missing.py"))
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [f"gather-lint: error: {tmp_path / 'missing.py'}: no such file or directory"]


def test_a_missing_path_beside_clean_files_is_not_reported_as_clean(tmp_path):
    (tmp_path / "clean.py").write_text("import torch\n")
    out = run(str(tmp_path / "clean.py"), str(tmp_path / "missing.py"))
    assert out.returncode == 2
    assert "missing.py: no such file or directory" in out.stderr
    assert out.stderr.strip().splitlines()[-1] == "No problems found in 1 file. 1 path not found."


def test_explain_is_an_alias_of_rule():
    explained, ruled = run("explain", "GL005"), run("rule", "GL005")
    assert explained.returncode == 0 and explained.stdout == ruled.stdout
    assert explained.stdout.startswith("# GL005 unexpanded-index")
    assert run("explain", "GL999").returncode == 2


def test_help_lists_the_subcommands():
    out = run("--help")
    assert out.returncode == 0
    for usage in ("gather-lint rules", "gather-lint rule CODE", "gather-lint shapes FILE[:LINE]"):
        assert usage in out.stdout
