"""benchmarks/runtime_recall.py tells silent bugs from raising ones, as meta.toml's runtime_bug says."""
from .benchmark_scripts import load

runtime_recall = load("runtime_recall")


def _case(root, name, runtime_bug):
    case = root / "cases" / name
    case.mkdir(parents=True)
    (case / "bug.py").write_text("print('bug')\n")
    (case / "fixed.py").write_text("print('ok')\n")
    (case / "meta.toml").write_text(f'bug_class = "other"\nruntime_bug = "{runtime_bug}"\n')


def test_programs_say_what_each_bug_does_in_torch(tmp_path):
    _case(tmp_path, "001_quiet", "silent: only column 0 is read")
    _case(tmp_path, "002_loud", "RuntimeError: index 5 is out of bounds")
    (tmp_path / "clean").mkdir()
    (tmp_path / "clean" / "c01.py").write_text("print('ok')\n")
    found = [(kind, path.name if kind == "clean" else path.parent.name, effect)
             for kind, _, path, effect in runtime_recall.programs(tmp_path)]
    assert found == [("bug", "001_quiet", "silent"), ("fixed", "001_quiet", None),
                     ("bug", "002_loud", "raises"), ("fixed", "002_loud", None), ("clean", "c01.py", None)]
