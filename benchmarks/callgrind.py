"""Instruction counts under valgrind's callgrind, shared by the benchmarks that compare two runs on a
busy machine: the count repeats to a fraction of a percent where wall time spreads by 10%."""
import re
import shutil
import subprocess
from pathlib import Path
from typing import List, Optional


def valgrind() -> Optional[str]:
    return shutil.which("valgrind")


def summary(path: Path) -> Optional[int]:
    """The instruction total of one callgrind output file."""
    match = re.search(r"^summary: (\d+)", path.read_text(errors="replace"), re.M)
    return int(match.group(1)) if match else None


def count(command: List[str], out_file: Path, env=None, cwd=None) -> Optional[int]:
    """Instructions `command` executes (its own process only: run it without worker processes)."""
    done = subprocess.run([valgrind(), "--tool=callgrind", f"--callgrind-out-file={out_file}", *command],
                          capture_output=True, text=True, env=env, cwd=cwd)
    return summary(out_file) if out_file.exists() else None
