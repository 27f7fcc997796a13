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
