"""What an installed gather-lint does in a fresh process: the startup hook behind
`GATHER_LINT_RUNTIME=raise python script.py`, and the pytest plugin loaded by entry point and `-p` at once.

Runs against the interpreter's own install when it is this checkout's (CI: `pip install -e .`), else
against an editable install into a throwaway virtual environment that sees this interpreter's packages.
"""
import os
import subprocess
import sys
import sysconfig
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parent.parent
PTH = "gather_lint_runtime.pth"


def _installed_here() -> bool:
    """This interpreter has this checkout installed, .pth included."""
    try:
        dist = metadata.distribution("gather-lint")
    except metadata.PackageNotFoundError:
        return False
    if not any(str(f).endswith(PTH) for f in dist.files or ()):
        return False
    direct = dist.read_text("direct_url.json") or ""
    return ROOT.as_uri() in direct


@pytest.fixture(scope="module")
def python(tmp_path_factory):
    if _installed_here():
        return sys.executable
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True)
    exe = str(venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python"))
    built = subprocess.run([sys.executable, "-m", "pip", "--python", exe, "install", "-q", "--no-deps",
                            "--no-build-isolation", "-e", str(ROOT)], capture_output=True, text=True)
    if built.returncode != 0:
        pytest.skip(f"cannot install this checkout into a virtual environment: {built.stderr[-500:]}")
    return exe


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GATHER_LINT_RUNTIME")}
    env.update(extra)
    return env


SCRIPT = textwrap.dedent("""\
    import torch

    def lookup(table, ids):
        return table.index_select(0, ids)

    print(lookup(torch.randn(3, 4), torch.tensor([0, 2])).shape)
    lookup(torch.randn(3, 4), torch.tensor([7]))
""")


def test_environment_switch_works_without_importing_gather_lint(python, tmp_path):
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    plain = subprocess.run([python, str(script)], capture_output=True, text=True, env=_env())
    assert plain.returncode == 1 and "GL011" not in plain.stderr and "IndexError" in plain.stderr
    checked = subprocess.run([python, str(script)], capture_output=True, text=True, env=_env(GATHER_LINT_RUNTIME="raise"))
    assert checked.returncode == 1 and checked.stdout.strip() == "torch.Size([2, 4])"
    err = checked.stderr
    assert "GatherLintIndexError: GL011 Tensor.index_select()" in err and "index out of range in self" in err
    frames = [line for line in err.splitlines() if line.startswith('  File "')]
    assert frames[-1] == f'  File "{script}", line 4, in lookup'  # the traceback ends at the user's line
    assert not any("gather_lint" in f or "runpy" in f for f in frames), err


def test_startup_hook_waits_for_torch(python, tmp_path):
    script = tmp_path / "script.py"
    script.write_text("import sys\nprint('torch' in sys.modules, 'gather_lint.runtime' in sys.modules)\n"
                      "import torch\nprint('gather_lint.runtime' in sys.modules)\n")
    out = subprocess.run([python, str(script)], capture_output=True, text=True, env=_env(GATHER_LINT_RUNTIME="warn"))
    assert out.returncode == 0 and out.stdout.split() == ["False", "False", "True"]
    off = subprocess.run([python, str(script)], capture_output=True, text=True, env=_env())
    assert off.stdout.split() == ["False", "False", "False"]


def test_pytest_plugin_named_twice_registers_once(python, tmp_path):
    (tmp_path / "test_one.py").write_text("import torch\n\ndef test_bad():\n"
                                          "    torch.randn(3, 4).index_select(0, torch.tensor([7]))\n")
    args = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "gather_lint.runtime.pytest_plugin",
            "--gather-lint-runtime", str(tmp_path)]
    args[4:4] = _stale_plugin_names()
    out = subprocess.run(args, capture_output=True, text=True, env=_env(), cwd=tmp_path)
    assert out.returncode == 1 and "1 failed" in out.stdout and "GatherLintIndexError" in out.stdout, out.stdout + out.stderr


def _stale_plugin_names():
    """An older gather-lint install seen through the system packages registers under its old name: block it."""
    purelib = sysconfig.get_paths()["purelib"]
    names = []
    for dist in metadata.distributions(path=[purelib]):
        if (dist.metadata["Name"] or "").lower() == "gather-lint":
            names += [ep.name for ep in dist.entry_points if ep.group == "pytest11" and "." not in ep.name]
    return [arg for name in names for arg in ("-p", f"no:{name}")]
