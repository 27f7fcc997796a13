"""torch's own warnings from an intercepted call are shown at the user's line, not at gather-lint's wrapper."""
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import checked  # noqa: E402

REPO = Path(__file__).resolve().parent.parent

SCRIPT = """
import torch
import torch.nn.functional as F
x = torch.zeros(3)
y = x.scatter(0, torch.tensor([0, 1]), torch.ones(2), reduce="add")
loss = F.mse_loss(torch.randn(4, 1), torch.randn(4, 1).view(1, 4))
"""


def _stderr(path: Path, *runner) -> str:
    env = {"PYTHONPATH": str(REPO), "PATH": "", "PYTHONWARNINGS": "default"}
    done = subprocess.run([sys.executable, *runner, str(path)], capture_output=True, text=True, env=env,
                          cwd=path.parent, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_torch_warnings_name_the_user_line_under_the_mode_as_without_it(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(SCRIPT))
    plain = _stderr(script)
    checked_run = _stderr(script, "-m", "gather_lint.runtime")
    for line, text in ((5, "reduce argument of torch.scatter"), (6, "Using a target size")):
        assert f"train.py:{line}: UserWarning: " in plain and text in plain  # where torch itself puts it
        assert f"train.py:{line}: UserWarning: " in checked_run, checked_run
    assert "interception.py" not in checked_run


def test_the_warning_display_is_restored_when_the_mode_ends():
    before = warnings.showwarning
    with checked():
        assert warnings.showwarning is not before
    assert warnings.showwarning is before
