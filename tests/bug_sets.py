"""Where the real-bug sets live: the team's `../shared/bugs` (when present) and `benchmarks/bugs`."""
import contextlib
import io
import os
import runpy
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "bugs")
PROJECT = os.path.join(ROOT, "benchmarks", "bugs")
SETS = {"shared/bugs": SHARED, "benchmarks/bugs": PROJECT}


def present_sets():
    return {name: path for name, path in SETS.items() if os.path.isdir(os.path.join(path, "cases"))}


def case_dirs(set_path):
    cases = os.path.join(set_path, "cases")
    return [os.path.join(cases, n) for n in sorted(os.listdir(cases))
            if os.path.isfile(os.path.join(cases, n, "meta.toml"))]


def clean_files(set_path):
    clean = os.path.join(set_path, "clean")
    if not os.path.isdir(clean):
        return []
    return [os.path.join(clean, n) for n in sorted(os.listdir(clean)) if n.endswith(".py")]


def run_script(path):
    """Run a file as __main__ in this process (torch is imported once for all); (exception, stdout)."""
    import torch

    out = io.StringIO()
    saved_path = list(sys.path)
    sys.path.insert(0, os.path.dirname(path))
    try:
        # each program starts from torch's defaults, whatever the one before it switched
        with contextlib.redirect_stdout(out), torch.enable_grad():
            runpy.run_path(path, run_name="__main__")
    except Exception as exc:  # noqa: BLE001 - the bug programs are meant to raise
        return exc, out.getvalue()
    finally:
        sys.path[:] = saved_path
    return None, out.getvalue()
