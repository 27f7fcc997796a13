"""The speed benchmark's own logic (the counting and timing are its job, minutes long): a clear exit
where valgrind is missing, and runs that use cached bytecode as an installed copy does."""
import os

import pytest

from . import benchmark_scripts


@pytest.fixture(scope="module")
def bench():
    return benchmark_scripts.load("lint_speed")


def test_instructions_without_valgrind_exit_2_with_a_message(bench, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(bench.callgrind.shutil, "which", lambda name: None)
    assert bench.instructions(str(tmp_path), None) == 2
    assert "valgrind is not installed" in capsys.readouterr().err


def test_runs_keep_bytecode_and_name_the_checkout(bench, monkeypatch, tmp_path):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    ran = []
    monkeypatch.setattr(bench.subprocess, "run", lambda cmd, **kw: ran.append((cmd, kw["env"])))
    env = bench.checkout_env(str(tmp_path))
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["PYTHONPATH"] == str(tmp_path)
    (cmd, run_env), = ran  # one start-up run writes the bytecode before anything is measured
    assert cmd[1:3] == ["-m", "gather_lint"] and run_env is env
    assert os.environ["PYTHONDONTWRITEBYTECODE"] == "1"  # this process's environment is left alone
