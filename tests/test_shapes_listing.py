"""`gather-lint shapes` prints a table whose columns line up."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_shapes_columns_line_up():
    out = subprocess.run([sys.executable, "-m", "gather_lint", "shapes", "examples/buggy/beam_search.py"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "examples/buggy/beam_search.py:5 beam_step"
    header, rows = lines[1], lines[2:]
    starts = [m.start() for m in re.finditer(r"\S+", header)][1:]  # where each column after `line` begins
    assert [header[s:].split()[0] for s in starts] == ["name", "shape", "dtype", "from", "values"]
    assert len(rows) >= 5
    for row in rows:
        assert row[starts[0] - 2:starts[0]] == "  " and row[starts[0]] != " ", row  # the line number column ends here
        for start in starts[1:4]:
            assert row[start - 2:start] == "  " and row[start] != " ", row
    assert any("`% vocab_size` remainders" in row and row.index("`% vocab_size`") == starts[4] for row in rows)
