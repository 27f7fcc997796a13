"""The default text output: source line with the index underlined, shapes in columns, the fix;
the concise form keeps today's single line; the summary comes after the findings."""
import json
import os
import subprocess
import sys

from gather_lint.api import lint_text
from gather_lint.report import write

BUG = ("import torch\n"
       "features = torch.randn(10, 128)  # [N, D]\n"
       "idx = torch.tensor([1, 2])\n"
       "rows = torch.gather(features, 0, idx.unsqueeze(1))\n")


def run(*args, cwd=None, stdin=None, merged=False):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered, as in a pipe
    proc = subprocess.run([sys.executable, "-m", "gather_lint", *args], cwd=cwd, input=stdin, text=True, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT if merged else subprocess.PIPE)
    assert "Traceback" not in proc.stdout + (proc.stderr or "")
    return proc


def test_default_output_underlines_the_index_and_aligns_shapes_then_help(tmp_path):
    (tmp_path / "bug.py").write_text(BUG)
    out = run("bug.py", cwd=tmp_path)
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert lines[0].startswith("bug.py:4:14: GL005 index `idx.unsqueeze(1)` [2, 1] has size 1 on dim 1 (D)")
    assert lines[0].endswith("so only column 0 is read, silently")  # the fix is not repeated in the headline
    assert lines[1:4] == [
        "  |",
        "4 | rows = torch.gather(features, 0, idx.unsqueeze(1))",
        "  |                                  ^^^^^^^^^^^^^^^^",
    ]
    carets = lines[3]
    assert lines[2][carets.index("^"):carets.rindex("^") + 1] == "idx.unsqueeze(1)"
    assert lines[4:7] == [
        "  = input   features          [N, D]",
        "  = index   idx.unsqueeze(1)  [2, 1]",
        "  = result                    [2, 1]",
    ]
    assert lines[7] == "  = help: expand the index with `.expand(-1, features.size(1))` (or use torch.take_along_dim, which broadcasts)"
    assert lines[8] == "" and len(lines) == 9
    assert "\033[" not in out.stdout  # no colour when piped


def test_concise_json_and_flake8_keep_the_full_single_line_message(tmp_path):
    (tmp_path / "bug.py").write_text(BUG)
    concise = run("--format", "concise", "bug.py", cwd=tmp_path).stdout.splitlines()
    [data] = json.loads(run("--format", "json", "bug.py", cwd=tmp_path).stdout)
    assert concise == [f"bug.py:4:14: GL005 {data['message']}"]
    assert data["message"].endswith("; expand the index with `.expand(-1, features.size(1))` (or use torch.take_along_dim, which broadcasts)")
    flake = subprocess.run([sys.executable, "-m", "flake8", "--select=GL", "bug.py"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert flake.stdout.splitlines() == concise


def test_summary_follows_the_findings_on_its_own_line_when_streams_share_a_pipe(tmp_path):
    (tmp_path / "bug.py").write_text(BUG)
    (tmp_path / "dqn.py").write_text("import torch\nq = torch.randn(32, 4)\na = torch.randint(4, (32,))\n"
                                     "out = q.gather(1, a)\n")
    for fmt in ("text", "concise"):
        out = run("--format", fmt, ".", cwd=tmp_path, merged=True)
        lines = out.stdout.splitlines()
        assert lines[-1] == "Found 2 problems (1 error, 1 warning) in 2 of 2 files.", out.stdout
        assert sum("Found" in line for line in lines) == 1
        assert out.stdout.index("bug.py") < out.stdout.index("dqn.py") < out.stdout.index("Found")


def test_output_is_the_same_on_every_run_and_from_the_cache(tmp_path):
    (tmp_path / "bug.py").write_text(BUG)
    first = run("bug.py", cwd=tmp_path).stdout
    assert os.path.isdir(tmp_path / ".gather_lint_cache")
    assert run("bug.py", cwd=tmp_path).stdout == first
    assert run("--no-cache", "bug.py", cwd=tmp_path).stdout == first


def test_stdin_and_a_finding_without_shapes_or_fix(tmp_path):
    out = run("-", "--stdin-filename", "m.py", stdin=BUG)
    assert out.stdout.splitlines()[2] == "4 | rows = torch.gather(features, 0, idx.unsqueeze(1))"
    (tmp_path / "broken.py").write_text("def f(:\n    gather(\n")
    broken = run("broken.py", cwd=tmp_path).stdout.splitlines()
    assert broken[0].startswith("broken.py:1:7: GL000 cannot parse") and broken[-1] == ""


def test_colour_only_when_asked_for(tmp_path):
    import io

    findings = lint_text(BUG, "bug.py").findings
    plain, coloured = io.StringIO(), io.StringIO()
    write(findings, "text", plain, colour=False)
    write(findings, "text", coloured, colour=True)
    assert "\033[" not in plain.getvalue()
    assert "\033[33m\033[1mGL005" in coloured.getvalue() and "\033[33m^^^^" in coloured.getvalue()
    strip = coloured.getvalue()
    for code in ("\033[33m", "\033[36m", "\033[1m", "\033[0m"):
        strip = strip.replace(code, "")
    assert strip == plain.getvalue()


def test_colour_on_a_terminal(tmp_path):
    pty = __import__("pytest").importorskip("pty")
    (tmp_path / "bug.py").write_text(BUG)
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    proc = subprocess.run([sys.executable, "-m", "gather_lint", "bug.py"], cwd=tmp_path, stdout=follower,
                          stderr=subprocess.PIPE, env=env)
    os.close(follower)
    shown = os.read(leader, 65536).decode()
    os.close(leader)
    assert proc.returncode == 1 and "\033[33m" in shown and "^^^^" in shown


def test_every_rule_example_finding_has_a_help_line_or_says_why_not():
    """Rule messages end with their fix (`problem; fix`), which the text output shows as help."""
    from gather_lint.rules import ALL_RULES

    no_single_fix = {"GL003", "GL007"}  # the fix depends on which side is wrong
    for rule in ALL_RULES:
        for example in rule.EXAMPLES:
            for f in lint_text(example.bad, "x.py").findings:
                if f.code == rule.CODE and rule.CODE not in no_single_fix:
                    assert f.help and f.message.endswith("; " + f.help), (rule.CODE, f.message)


def test_a_call_over_several_lines_shows_the_index_line_and_tabs_keep_carets_aligned(tmp_path):
    source = ("import torch\nfeatures = torch.randn(10, 128)  # [N, D]\nidx = torch.randint(10, (5,))  # [K]\n"
              "rows = torch.gather(\n    features, 0,\n    idx.unsqueeze(1))\n"
              "if True:\n\tré = torch.gather(features, 0, idx.unsqueeze(1))\n")
    (tmp_path / "m.py").write_text(source)
    lines = run("m.py", cwd=tmp_path).stdout.splitlines()
    first = lines.index("6 |     idx.unsqueeze(1))")
    assert lines[first - 2].startswith("m.py:4:14: GL005") and lines[first + 1] == "  |     ^^^^^^^^^^^^^^^^"
    second = lines.index("8 |  ré = torch.gather(features, 0, idx.unsqueeze(1))")
    assert lines[second - 2].startswith("m.py:8:13: GL005")
    assert lines[second + 1] == "  |                                 ^^^^^^^^^^^^^^^^"
