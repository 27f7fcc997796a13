"""The README's examples, tables and snippets match what the tool does and work as written."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gather_lint.findings import Finding
from gather_lint.rules import ALL_RULES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def blocks(language):
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.DOTALL)


def section(title):
    start = README.index(title)
    end = README.find("\n#", start + len(title))
    return README[start:end if end != -1 else None]


@pytest.fixture
def shim(tmp_path):
    """`gather-lint` on PATH, running this checkout (as an installed console script would)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "gather-lint"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m gather_lint "$@"\n')
    script.chmod(0o755)
    return dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", PYTHONPATH=str(ROOT))


def test_readme_first_example_prints_what_the_readme_shows(tmp_path):
    code, shown = re.search(r"```python\n(.*?)```\n```\n(.*?)```", README, flags=re.DOTALL).groups()
    (tmp_path / "model.py").write_text(code)
    out = subprocess.run([sys.executable, "-m", "gather_lint", "--quiet", "model.py"], cwd=tmp_path,
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.stdout.rstrip("\n") == shown.rstrip("\n")


def test_readme_rule_table_lists_every_rule_with_its_severity():
    rows = re.findall(r"^\| (GL\d{3}) \| (\w+) \|", README, flags=re.MULTILINE)
    assert dict(rows) == {"GL000": "error", **{rule.CODE: rule.SEVERITY for rule in ALL_RULES}}


def test_readme_json_keys_are_in_the_order_the_tool_prints():
    listed = re.search(r"json: \[\{([^}]*)\}\]", README).group(1).split(", ")
    printed = list(Finding("p.py", 1, 1, "GL001", 1, 2, "error", "m").as_json())
    assert listed == printed


def test_readme_local_pre_commit_hook_works_as_written(tmp_path, shim):
    pytest.importorskip("pre_commit")
    config = next(b for b in blocks("yaml") if "repo: local" in b)
    work = tmp_path / "user-repo"
    work.mkdir()
    env = dict(shim, PRE_COMMIT_HOME=str(tmp_path / "cache"), GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    (work / ".pre-commit-config.yaml").write_text(config)
    (work / "loss.py").write_text((ROOT / "examples" / "buggy" / "dqn_loss.py").read_text())
    shutil.copy(ROOT / "examples" / "buggy" / "notebook_lookup.ipynb", work / "lookup.ipynb")
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=work, check=True, capture_output=True, env=env)
    out = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=work,
                         capture_output=True, text=True, env=env)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "loss.py:10:25: GL001" in out.stdout and "lookup.ipynb:cell 3:3:17: GL005" in out.stdout
    assert "Found" not in out.stdout


def test_readme_code_scanning_steps_work_as_written(tmp_path, shim):
    yaml = pytest.importorskip("yaml")
    requirements = pytest.importorskip("packaging.requirements")
    job = yaml.safe_load(next(b for b in blocks("yaml") if "upload-sarif" in b))["jobs"]["gather-lint"]
    runs = [step["run"] for step in job["steps"] if "run" in step]
    install = re.fullmatch(r'pip install "(.*)"', runs[0]).group(1)
    requirement = requirements.Requirement(install)
    assert requirement.name == "gather-lint" and requirement.url.startswith("git+https://github.com/")
    assert job["permissions"]["security-events"] == "write"
    (tmp_path / "loss.py").write_text((ROOT / "examples" / "buggy" / "dqn_loss.py").read_text())
    lint = subprocess.run(runs[1], shell=True, cwd=tmp_path, env=shim, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stderr  # findings go to code scanning, not to the step's status
    sarif = json.loads((tmp_path / "gather-lint.sarif").read_text())
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["GL001"]
    uploaded = next(step for step in job["steps"] if "upload-sarif" in step.get("uses", ""))
    assert uploaded["with"]["sarif_file"] == "gather-lint.sarif"


def test_readme_pinned_pre_commit_hook_works_with_the_repository_and_a_commit(tmp_path):
    """The pinned form, with OWNER's repository replaced by a local snapshot of this one (offline)."""
    pytest.importorskip("pre_commit")
    config = next(b for b in blocks("yaml") if "rev: REV" in b)
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    env.pop("PYTHONPATH", None)  # the hook must run from the environment pre-commit installs
    hook_repo = tmp_path / "gather-lint"
    shutil.copytree(ROOT, hook_repo, ignore=shutil.ignore_patterns(
        ".git", "corpus", "__pycache__", ".gather_lint_cache", "*.egg-info", ".pytest_cache", "build"))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "snapshot"]):
        subprocess.run(["git", *args], cwd=hook_repo, check=True, capture_output=True, env=env)
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hook_repo, capture_output=True, text=True).stdout.strip()
    assert "https://github.com/OWNER/gather-lint" in config
    work = tmp_path / "user-repo"
    work.mkdir()
    (work / ".pre-commit-config.yaml").write_text(
        config.replace("https://github.com/OWNER/gather-lint", str(hook_repo)).replace("REV", rev))
    (work / "loss.py").write_text((ROOT / "examples" / "buggy" / "dqn_loss.py").read_text())
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=work, check=True, capture_output=True, env=env)
    out = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=work,
                         capture_output=True, text=True, env=env)
    assert out.returncode == 1 and "loss.py:10:25: GL001" in out.stdout, out.stdout + out.stderr
