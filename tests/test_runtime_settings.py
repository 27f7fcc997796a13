"""Runtime settings that used to do nothing silently: an unknown GATHER_LINT_RUNTIME value, and making
GatherLintWarnings stop a script (`python -W error::gather_lint.runtime.GatherLintWarning` cannot: the
interpreter reads -W before any module of gather_lint can be imported, and drops the option)."""
import subprocess
import textwrap

import pytest

from .test_runtime_install import _env, python  # noqa: F401 (the installed interpreter, .pth included)

pytest.importorskip("torch")

USES_TORCH = "import torch\nprint('checked' if 'gather_lint.runtime' in __import__('sys').modules else 'plain')\n"


@pytest.mark.parametrize("value", ["1", "yes", "Rais"])
def test_unknown_value_is_named_once_on_stderr(python, tmp_path, value):  # noqa: F811
    script = tmp_path / "script.py"
    script.write_text(USES_TORCH + "import gather_lint.runtime\n")  # the hook and the import both read it
    out = subprocess.run([python, str(script)], capture_output=True, text=True, env=_env(GATHER_LINT_RUNTIME=value))
    assert out.returncode == 0 and out.stdout.strip() == "plain"
    warnings = [line for line in out.stderr.splitlines() if "GATHER_LINT_RUNTIME" in line]
    assert warnings == [f"gather-lint: warning: GATHER_LINT_RUNTIME={value!r} is not one of raise, warn, off; "
                        "runtime checks are off"], out.stderr


@pytest.mark.parametrize("value, shown", [("", "plain"), ("off", "plain"), ("OFF", "plain"), (" warn ", "checked"),
                                          ("RAISE", "checked")])
def test_accepted_values_say_nothing(python, tmp_path, value, shown):  # noqa: F811
    script = tmp_path / "script.py"
    script.write_text(USES_TORCH)
    out = subprocess.run([python, str(script)], capture_output=True, text=True, env=_env(GATHER_LINT_RUNTIME=value))
    assert out.returncode == 0 and out.stdout.strip() == shown and out.stderr == ""


def test_runner_rejects_what_the_hook_warns_about(python, tmp_path):  # noqa: F811
    script = tmp_path / "script.py"
    script.write_text(USES_TORCH)
    out = subprocess.run([python, "-m", "gather_lint.runtime", str(script)], capture_output=True, text=True,
                         env=_env(GATHER_LINT_RUNTIME="yes"))
    assert out.returncode == 2 and "GATHER_LINT_RUNTIME='yes': expected raise, warn or off" in out.stderr


# a silent mistake (GL005: only column 0 is read) next to a plain UserWarning of the script's own
SILENT = textwrap.dedent("""\
    import warnings
    import torch

    warnings.warn("the script's own warning")
    rows = torch.gather(torch.randn(4, 3), 0, torch.tensor([[0], [1]]))
    print("ran on", tuple(rows.shape))
""")


def _run(python, args, tmp_path, **env):  # noqa: F811
    script = tmp_path / "train.py"
    script.write_text(SILENT)
    return subprocess.run([python, *args, str(script)], capture_output=True, text=True, env=_env(**env), cwd=tmp_path)


def test_silent_mistake_only_warns_by_default(python, tmp_path):  # noqa: F811
    out = _run(python, ["-m", "gather_lint.runtime"], tmp_path)
    assert out.returncode == 0 and "ran on (2, 1)" in out.stdout
    assert "GatherLintWarning: GL005 torch.gather()" in out.stderr


def test_runner_switch_stops_the_script(python, tmp_path):  # noqa: F811
    out = _run(python, ["-m", "gather_lint.runtime", "--warnings-as-errors"], tmp_path)
    assert out.returncode == 1 and "ran on" not in out.stdout
    assert "gather_lint.runtime.errors.GatherLintWarning: GL005 torch.gather()" in out.stderr
    assert "UserWarning: the script's own warning" in out.stderr  # other warnings stay warnings
    frames = [line for line in out.stderr.splitlines() if line.startswith('  File "')]
    assert frames and frames[-1].startswith(f'  File "{tmp_path / "train.py"}", line 5'), out.stderr


@pytest.mark.parametrize("switch", [["-m", "gather_lint.runtime"], []])
def test_python_w_by_message_prefix_stops_the_script(python, tmp_path, switch):  # noqa: F811
    out = _run(python, ["-W", "error:GL:UserWarning", *switch], tmp_path, GATHER_LINT_RUNTIME="raise")
    assert out.returncode == 1 and "ran on" not in out.stdout
    assert "GatherLintWarning: GL005 torch.gather()" in out.stderr
    assert "UserWarning: the script's own warning" in out.stderr
    frames = [line for line in out.stderr.splitlines() if line.startswith('  File "')]
    assert not any("gather_lint" in f for f in frames), out.stderr  # the traceback ends at the user's line


def test_python_w_cannot_name_the_class(python, tmp_path):  # noqa: F811
    """What the README says does not work for scripts, and why: the option is dropped at startup."""
    out = _run(python, ["-W", "error::gather_lint.runtime.GatherLintWarning", "-m", "gather_lint.runtime"], tmp_path)
    assert out.returncode == 0 and "ran on (2, 1)" in out.stdout
    assert "Invalid -W option ignored" in out.stderr and "GatherLintWarning: GL005" in out.stderr


def test_pytest_w_names_the_class(python, tmp_path):  # noqa: F811
    (tmp_path / "test_silent.py").write_text("import torch\n\ndef test_rows():\n"
                                             "    torch.gather(torch.randn(4, 3), 0, torch.tensor([[0], [1]]))\n")
    base = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--gather-lint-runtime", "test_silent.py"]
    warned = subprocess.run(base, capture_output=True, text=True, env=_env(), cwd=tmp_path)
    assert warned.returncode == 0 and "GatherLintWarning" in warned.stdout, warned.stdout
    stopped = subprocess.run(base + ["-W", "error::gather_lint.runtime.GatherLintWarning"], capture_output=True,
                             text=True, env=_env(), cwd=tmp_path)
    assert stopped.returncode == 1 and "1 failed" in stopped.stdout, stopped.stdout


def test_python_w_by_message_prefix_with_checked_in_the_code(python, tmp_path):  # noqa: F811
    script = tmp_path / "train.py"
    script.write_text(SILENT.replace("import torch\n", "import torch\nfrom gather_lint.runtime import checked\n")
                      .replace("rows = ", "with checked():\n    rows = "))
    out = subprocess.run([python, "-W", "error:GL:UserWarning", str(script)], capture_output=True, text=True,
                         env=_env(), cwd=tmp_path)
    assert out.returncode == 1 and "ran on" not in out.stdout
    assert "GatherLintWarning: GL005 torch.gather()" in out.stderr
    assert "UserWarning: the script's own warning" in out.stderr


def test_runner_rejects_an_unknown_level_from_the_environment(python, tmp_path):  # noqa: F811
    script = tmp_path / "script.py"
    script.write_text("print('ran')\n")
    out = subprocess.run([python, "-m", "gather_lint.runtime", str(script)], capture_output=True, text=True,
                         env=_env(GATHER_LINT_LEVEL="bogus"))
    assert (out.returncode, out.stdout) == (2, "") and "Traceback" not in out.stderr
    assert "GATHER_LINT_LEVEL='bogus': expected sync or async" in out.stderr
