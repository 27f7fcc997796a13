"""The instruction-count benchmark's own logic: reading callgrind's dumps in order, and a clear exit
where valgrind is missing (the counting itself needs valgrind and minutes: it is the benchmark's job)."""
import sys

import pytest

from . import benchmark_scripts


@pytest.fixture(scope="module")
def bench():
    return benchmark_scripts.load("runtime_instructions")


def test_dumps_are_read_in_numeric_order(bench, tmp_path):
    for n, total in ((1, 500), (2, 7), (10, 99), (9, 3)):
        (tmp_path / f"out.{n}").write_text(f"version: 1\ncmd: python\nsummary: {total}\ntotals: {total}\n")
    (tmp_path / "out").write_text("summary: 123456\n")  # the final dump at exit is not a phase
    assert bench.dumps(tmp_path) == [500, 7, 3, 99]


def test_a_dump_without_a_summary_is_none(bench, tmp_path):
    (tmp_path / "out.1").write_text("version: 1\n")
    assert bench.dumps(tmp_path) == [None]


def test_missing_valgrind_exits_2_with_a_message(bench, monkeypatch, capsys):
    monkeypatch.setattr(bench.callgrind.shutil, "which", lambda name: None)
    monkeypatch.setattr(sys, "argv", ["runtime_instructions.py", "--only", "gpt"])
    assert bench.main() == 2
    assert "valgrind is not installed" in capsys.readouterr().err


def test_unknown_workload_is_a_usage_error(bench, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["runtime_instructions.py", "--only", "bert"])
    with pytest.raises(SystemExit) as exit_info:
        bench.main()
    assert exit_info.value.code == 2
