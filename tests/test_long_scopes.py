"""A long scope costs time in proportion to its statements, and Ctrl-C ends a run cleanly.

Times on a shared machine are noise, so linearity is checked by counting: the Python and builtin
calls the analysis makes on one generated scope and on the same scope twice as long (the count repeats
exactly from run to run). A look back over the whole scope at every statement doubles the ratio's
excess at each doubling; indexed look ups keep it near 2.
"""
import os
import signal
import subprocess
import sys
import time

import pytest

from gather_lint.api import lint_text

from . import benchmark_scripts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def bench():
    return benchmark_scripts.load("long_scopes")


def _calls(source: str) -> int:
    count = 0

    def counter(frame, event, arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(counter)
    try:
        lint_text(source, "long.py")
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("kind", ["function_source", "script_source"])
def test_twice_the_lines_cost_about_twice_the_calls(bench, kind):
    make = getattr(bench, kind)
    lint_text(make(40), "warm.py")  # compiled patterns and first-use caches are not the scope's cost
    short, long = _calls(make(200)), _calls(make(400))
    assert 1.8 < long / short < 2.2, (short, long)  # quadratic look backs made it 2.9 at these sizes


def test_generated_scopes_have_a_finding_per_round(bench):
    """Each round's unexpanded row gather is found, with the shapes known, in both forms."""
    for make in (bench.function_source, bench.script_source):
        found = lint_text(make(len(bench._ROUND) * 3), "long.py").findings
        assert [f.code for f in found] == ["GL005"] * 3


def test_benchmark_prints_its_table_at_a_tiny_size(bench):
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "long_scopes.py"), "--sizes", "40", "80"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    header, *rows = proc.stdout.strip().splitlines()
    assert header.split()[:3] == ["lines", "function", "s"] and "ratio to 40" in header
    assert [row.split()[0] for row in rows] == ["40", "80"]
    assert rows[0].split()[3:6] == ["1.0", "/", "1.0"]  # the first size is its own reference


def test_benchmark_rejects_a_size_too_small(bench):
    with pytest.raises(SystemExit) as exc:
        bench.main(["--sizes", "3"])
    assert exc.value.code == 2


def _children(pid: int):
    """The pids whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _default_sigint() -> None:
    """Ctrl-C as a terminal's child has it: a suite started in the background (`nohup pytest &`) ignores SIGINT,
    and a child inherits that, so the run would never see the signal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


_INTERRUPT_THE_IMPORT = """
import sys
class Interrupt:  # Ctrl-C lands while the command line is still being imported
    def find_spec(self, name, path=None, target=None):
        if name == "gather_lint.cli":
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupt())
from gather_lint.__main__ import run
sys.exit(run())
"""


def test_ctrl_c_while_importing_exits_130_without_traceback():
    """Importing the analyzer takes most of a second: Ctrl-C then ends like Ctrl-C during a run (the entry point
    the `gather-lint` script and `python -m gather_lint` share)."""
    proc = subprocess.run([sys.executable, "-c", _INTERRUPT_THE_IMPORT], capture_output=True, text=True, cwd=ROOT)
    assert (proc.returncode, proc.stderr) == (130, "gather-lint: interrupted\n")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; SIGINT semantics of POSIX")
@pytest.mark.parametrize("jobs,whole_group", [(1, False), (2, False), (2, True)])
def test_ctrl_c_exits_130_without_traceback_or_workers(bench, tmp_path, jobs, whole_group):
    """SIGINT to gather-lint alone, or to its whole process group as a terminal's Ctrl-C sends it, while
    workers lint: exit 130, one line on stderr, no worker left running."""
    source = bench.function_source(3000)
    for i in range(30):  # enough files for workers, each long enough that the run is still going
        (tmp_path / f"long_{i}.py").write_text(source)
    proc = subprocess.Popen([sys.executable, "-m", "gather_lint", "--no-cache", "--jobs", str(jobs), str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            start_new_session=True, preexec_fn=_default_sigint)
    try:
        deadline = time.monotonic() + 120
        workers = []
        while time.monotonic() < deadline and proc.poll() is None:  # imported, and into the files
            workers = _children(proc.pid) if jobs > 1 else []
            linting = workers if jobs > 1 else [proc.pid]
            if len(linting) >= jobs and min(_cpu_seconds(pid) for pid in linting) > 1.0:
                break
            time.sleep(0.1)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        if whole_group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert err == "gather-lint: interrupted\n"
    assert "Traceback" not in out
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [w for w in workers if _alive(w)]
    if jobs > 1:
        assert len(workers) >= jobs  # the parallel path was the one interrupted
