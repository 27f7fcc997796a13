"""Settings that used to do nothing silently, and what --diff/--fix say and write.

force-exclude: files named explicitly (as pre-commit names them) are matched against exclude/extend-exclude
too. --diff/--fix: findings with no automatic fix are counted and named; the diff ends with a newline; the
fixed file keeps its own encoding (a PEP 263 declaration, a UTF-8 BOM) and line endings.
"""
import os
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gather_lint import cli
from gather_lint.files import explicitly_excluded

ROOT = Path(__file__).resolve().parent.parent

# GL005 (missing expand: a fix), GL001 (rank: a fix only where the shapes say which)
BUG = textwrap.dedent("""\
    import torch
    features = torch.randn(10, 128)  # [N, D]
    idx = torch.tensor([1, 2])
    rows = torch.gather(features, 0, idx.unsqueeze(1))
""")


def lint(capsys, *args, cwd=None):
    """(exit code, stdout, stderr) of the command line, run in this process."""
    before = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        code = cli.main(["--no-cache", *args])
    finally:
        os.chdir(before)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.gather-lint]\nextend-exclude = ["third_party", "gen_*.py"]\n')
    for name in ("model.py", "third_party/vendored.py", "src/gen_tables.py", "src/third_party/deep.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BUG)
    return tmp_path


NAMED = ["model.py", "third_party/vendored.py", "src/gen_tables.py", "src/third_party/deep.py"]


def _linted(stdout):
    return sorted({line.split(":")[0] for line in stdout.splitlines() if ": GL" in line})


def test_named_files_are_linted_without_force_exclude(project, capsys):
    code, out, _ = lint(capsys, "--format", "concise", *NAMED, cwd=project)
    assert code == 1 and _linted(out) == sorted(NAMED)


def test_force_exclude_flag_skips_named_excluded_files(project, capsys):
    code, out, err = lint(capsys, "--format", "concise", "--force-exclude", *NAMED, cwd=project)
    assert code == 1 and _linted(out) == ["model.py"]
    assert "in 1 of 1 file." in err  # the skipped files are not counted as linted


def test_force_exclude_config_key(project, capsys):
    (project / "pyproject.toml").write_text('[tool.gather-lint]\nextend-exclude = ["third_party"]\n'
                                            'force-exclude = true\n')
    code, out, _ = lint(capsys, "--format", "concise", *NAMED, cwd=project)
    assert _linted(out) == ["model.py", "src/gen_tables.py"]
    # only excluded files named: nothing to lint, nothing found
    code, out, _ = lint(capsys, "--format", "concise", "third_party/vendored.py", cwd=project)
    assert code == 0 and out == ""


def test_force_exclude_matches_below_the_configuration_folder_only(tmp_path, capsys):
    checkout = tmp_path / "build" / "checkout"  # `build` is a default exclude, but it is above the project
    checkout.mkdir(parents=True)
    (checkout / "pyproject.toml").write_text("[tool.gather-lint]\nforce-exclude = true\n")
    (checkout / "model.py").write_text(BUG)
    code, out, _ = lint(capsys, "--format", "concise", str(checkout / "model.py"))
    assert code == 1 and "GL005" in out
    assert explicitly_excluded(str(checkout / "build" / "x.py"), ("build",), str(checkout))
    assert not explicitly_excluded(str(checkout / "model.py"), ("build",), str(checkout))


def test_force_exclude_must_be_a_boolean(project, capsys):
    (project / "pyproject.toml").write_text('[tool.gather-lint]\nforce-exclude = "yes"\n')
    code, _, err = lint(capsys, "model.py", cwd=project)
    assert code == 2 and "'force-exclude' must be true or false" in err


def test_pre_commit_hook_entry_skips_excluded_files(project):
    """The hook's entry, run as pre-commit runs it: entry + each changed file."""
    yaml = pytest.importorskip("yaml")
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    argv = shlex.split(hook["entry"]) + hook.get("args", [])
    assert argv[0] == "gather-lint"
    proc = subprocess.run([sys.executable, "-m", "gather_lint", *argv[1:], "--format", "concise", *NAMED],
                          cwd=project, capture_output=True, text=True)
    assert proc.returncode == 1 and _linted(proc.stdout) == ["model.py"], proc.stdout + proc.stderr


# --- options before a subcommand ---

def test_options_before_or_after_a_subcommand_reach_it(capsys):
    code, page, _ = lint(capsys, "rule", "GL005")
    assert code == 0 and page.startswith("# GL005")
    for argv in (["rule", "GL005", "--quiet"], ["--quiet", "rule", "GL005"], ["-j", "2", "explain", "GL005"]):
        assert lint(capsys, *argv) == (0, page, "")
    code, table, _ = lint(capsys, "--quiet", "rules")
    assert code == 0 and "GL005" in table and table == lint(capsys, "rules")[1]


def test_shapes_after_moot_options(tmp_path, capsys):
    source = tmp_path / "m.py"
    source.write_text("import torch\nx = torch.randn(4, 3)\n")
    code, listing, _ = lint(capsys, "--isolated", "shapes", str(source))
    assert code == 0 and "[4, 3]" in listing and listing == lint(capsys, "shapes", str(source))[1]


@pytest.mark.parametrize("argv, option, name, call", [
    (["--format", "json", "shapes", "m.py"], "--format", "shapes", "gather-lint shapes FILE[:LINE]"),
    (["--fix", "rule", "GL005"], "--fix", "rule", "gather-lint rule CODE"),
    (["rules", "--select", "GL005"], "--select", "rules", "gather-lint rules"),
])
def test_option_a_subcommand_would_ignore_is_a_usage_error(capsys, argv, option, name, call):
    code, out, err = lint(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"gather-lint: error: {option} does not apply to `{name}`; call it as `{call}`")


def test_a_path_named_like_a_subcommand_is_linted_when_written_as_a_path(tmp_path, capsys):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "m.py").write_text(BUG)
    code, out, _ = lint(capsys, "--format", "concise", "./rules", cwd=tmp_path)
    assert code == 1 and "GL005" in out
