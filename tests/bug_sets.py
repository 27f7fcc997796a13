"""Where the real-bug sets live: the team's `../shared/bugs` (when present) and `benchmarks/bugs`."""
import os

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
