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


# --- what --diff/--fix say about findings they leave ---

# GL002 (dim out of range) and GL011 (-100 padding gathered): rules with no automatic fix
NO_FIX = textwrap.dedent("""\
    import torch
    logits = torch.randn(4, 10)  # [B, V]
    targets = torch.randint(10, (4, 1))
    out = logits.gather(2, targets)
    log_probs = torch.randn(2, 4, 10).log_softmax(-1)  # [B, L, V]
    labels = torch.tensor([[1, 2, 3, -100], [4, 5, -100, -100]])
    picked = log_probs.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
""")


def test_no_fix_rejected_by_torch():
    """The two findings are real: torch rejects both calls."""
    torch = pytest.importorskip("torch")
    logits, targets = torch.randn(4, 10), torch.randint(10, (4, 1))
    with pytest.raises(IndexError):
        logits.gather(2, targets)
    labels = torch.tensor([[1, 2, 3, -100], [4, 5, -100, -100]])
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.randn(2, 4, 10).gather(-1, labels.unsqueeze(-1))


def test_diff_says_which_findings_have_no_fix(tmp_path, capsys):
    target = tmp_path / "x.py"
    target.write_text(NO_FIX)
    code, out, err = lint(capsys, "--diff", "--isolated", str(target))
    assert (code, out) == (0, "")
    assert err == "0 files would be changed. 2 findings have no automatic fix (GL002, GL011).\n"


def test_fix_says_which_findings_have_no_fix_and_leaves_the_file(tmp_path, capsys):
    target = tmp_path / "x.py"
    target.write_text(NO_FIX)
    code, out, err = lint(capsys, "--fix", "--isolated", "--format", "concise", str(target))
    assert code == 1 and out.count(": GL0") == 2
    assert err == "Fixed 0 files; 2 problems left. 2 findings have no automatic fix (GL002, GL011).\n"
    assert target.read_text() == NO_FIX


def test_held_back_and_no_fix_are_both_counted(tmp_path, capsys):
    target = tmp_path / "x.py"
    target.write_text(NO_FIX + "rows = torch.gather(torch.randn(10, 128), 0, torch.tensor([1, 2]).unsqueeze(1))\n")
    _, _, err = lint(capsys, "--diff", "--isolated", str(target))
    assert err == ("0 files would be changed. 1 finding has an unsafe fix held back; add --unsafe-fixes to apply it "
                   "(review the result). 2 findings have no automatic fix (GL002, GL011).\n")
    code, out, err = lint(capsys, "--diff", "--unsafe-fixes", "--isolated", str(target))
    assert code == 1 and ".expand(-1, 128)" in out
    assert err == "1 file would be changed. 2 findings have no automatic fix (GL002, GL011).\n"


def test_a_fix_that_does_not_hold_up_is_counted(tmp_path, capsys, monkeypatch):
    from gather_lint import fixes

    target = tmp_path / "x.py"
    target.write_text("import torch\nx = torch.randn(2, 3).gather(1, torch.zeros(2, 1))\n")  # GL008, a safe fix
    monkeypatch.setattr(fixes, "apply", lambda text, *a, **k: (text, []))  # as when the re-lint rejects it
    code, _, err = lint(capsys, "--fix", "--isolated", str(target))
    assert code == 1 and err == ("Fixed 0 files; 1 problem left. 1 fix was not applied: the fixed code did not parse, "
                                 "or still had the finding, or had a new one.\n")


# --- the diff as git writes it ---

LAST_LINE_FIXED = "import torch\nrows = torch.gather(torch.randn(10, 128), 0, torch.tensor([1, 2]).unsqueeze(1))"


@pytest.mark.parametrize("source, markers", [
    (LAST_LINE_FIXED, 2),                                   # the changed line has no newline, before or after
    (LAST_LINE_FIXED + "\nx = 1", 1),                       # a context line has none
    ("import torch\n\x0c\n" + LAST_LINE_FIXED + "\n", 0),    # a form feed is no line break
    (LAST_LINE_FIXED.replace("\n", "\r\n") + "\r\n", 0),      # CRLF
])
def test_diff_ends_with_a_newline_and_applies_as_fix_writes(tmp_path, capsys, source, markers):
    target = tmp_path / "x.py"
    target.write_bytes(source.encode())
    code, diff, _ = lint(capsys, "--diff", "--unsafe-fixes", "--isolated", "x.py", cwd=tmp_path)
    assert code == 1 and diff.endswith("\n")
    assert diff.count("\\ No newline at end of file\n") == markers
    (tmp_path / "fix.diff").write_bytes(diff.encode())
    applied = subprocess.run(["git", "apply", "--unsafe-paths", "fix.diff"], cwd=tmp_path, capture_output=True, text=True)
    assert applied.returncode == 0, applied.stderr
    patched = target.read_bytes()
    target.write_bytes(source.encode())
    lint(capsys, "--fix", "--unsafe-fixes", "--isolated", "x.py", cwd=tmp_path)
    assert patched == target.read_bytes() != source.encode()


# --- --fix writes the file back in its own encoding ---

FIXED_LINE = b"rows = torch.gather(features, 0, idx.unsqueeze(1).expand(-1, features.size(1)))"


def _fix_bytes(tmp_path, capsys, raw: bytes):
    target = tmp_path / "x.py"
    target.write_bytes(raw)
    code, _, err = lint(capsys, "--fix", "--unsafe-fixes", "--isolated", str(target))
    return code, err, target.read_bytes()


def _only_the_fixed_line_changed(before: bytes, after: bytes):
    old, new = before.split(b"\n"), after.split(b"\n")
    assert len(old) == len(new)
    changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    assert len(changed) == 1 and new[changed[0]].rstrip(b"\r") == FIXED_LINE, (old, new)


@pytest.mark.parametrize("declared, codec", [("latin-1", "latin-1"), ("cp1252", "cp1252"), ("iso-8859-15", "iso-8859-15")])
def test_fix_keeps_a_declared_encoding(tmp_path, capsys, declared, codec):
    units = "UNITS = 'µm, café, ±2'  # déjà vu\n"
    text = f"# -*- coding: {declared} -*-\n" + BUG.replace("import torch\n", "import torch\n" + units)
    before = text.encode(codec)
    assert before != text.encode("utf-8")  # the declaration matters for these bytes
    code, err, after = _fix_bytes(tmp_path, capsys, before)
    assert code == 0 and "Fixed 1 file; 0 problems left." in err
    _only_the_fixed_line_changed(before, after)
    assert "UNITS = 'µm, café, ±2'  # déjà vu" in after.decode(codec)


def test_fix_keeps_a_utf8_bom_and_crlf(tmp_path, capsys):
    before = b"\xef\xbb\xbf" + BUG.replace("import torch\n", "import torch\nNAME = 'naïve'\n").replace("\n", "\r\n").encode()
    code, _, after = _fix_bytes(tmp_path, capsys, before)
    assert code == 0 and after.startswith(b"\xef\xbb\xbf") and not after.startswith(b"\xef\xbb\xbf" * 2)
    assert after.count(b"\r\n") == before.count(b"\r\n") and after.count(b"\n") == before.count(b"\n")
    _only_the_fixed_line_changed(before, after)


def test_fix_the_encoding_cannot_hold_leaves_the_file(tmp_path, capsys, monkeypatch):
    from gather_lint import fixes

    before = ("# -*- coding: latin-1 -*-\n" + BUG).encode("latin-1")
    real_apply = fixes.apply

    def arrow_in_the_fix(text, *args, **kwargs):  # a fix that brings a character latin-1 has no byte for
        fixed, done = real_apply(text, *args, **kwargs)
        return fixed.replace(".expand(-1, features.size(1)))", ".expand(-1, features.size(1)))  # → rows"), done

    monkeypatch.setattr(fixes, "apply", arrow_in_the_fix)
    code, err, after = _fix_bytes(tmp_path, capsys, before)
    assert after == before and code == 1
    assert "the fixed code needs '→', which the file's encoding (iso-8859-1) cannot hold; the file was left unchanged" in err
    assert "Fixed 0 files; 1 problem left." in err


def test_force_exclude_applies_to_the_stdin_filename(project):
    """Editors pipe the buffer and name its path: an excluded one is not reported, and --fix returns it as it came."""
    def piped(*args):
        return subprocess.run([sys.executable, "-m", "gather_lint", "--no-cache", "--format", "concise", *args, "-"],
                              cwd=project, input=BUG.encode(), capture_output=True)

    for name, reported in (("model.py", True), ("third_party/vendored.py", False)):
        linted = piped("--force-exclude", "--stdin-filename", name)
        assert (b"GL005" in linted.stdout) is reported and linted.returncode == int(reported), linted.stderr
        fixed = piped("--force-exclude", "--fix", "--unsafe-fixes", "--stdin-filename", name)
        assert (fixed.stdout == BUG.encode()) is not reported and b"import torch\n" in fixed.stdout
    assert b"GL005" in piped("--stdin-filename", "third_party/vendored.py").stdout  # named, without force-exclude
