

def test_the_command_line_leaves_the_collector_as_it_found_it(tmp_path):
    import gc

    from gather_lint import cli

    (tmp_path / "a.py").write_text("x = 1\n")
    before = gc.get_threshold()
    assert cli.main([str(tmp_path / "a.py"), "--no-cache", "--quiet"]) == 0
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_parallel_results_come_back_in_the_order_of_the_paths(tmp_path):
    """Workers take the largest files first; the results still follow the paths given, one per path
    (a missing path included)."""
    from gather_lint.api import _largest_first, lint_files

    paths = []
    for i in range(30):
        path = tmp_path / f"m{i:02d}.py"
        path.write_text(f"x{i} = 1\n" * ((i * 7) % 11 + 1))
        paths.append(str(path))
    paths.insert(5, str(tmp_path / "missing.py"))
    order = _largest_first(paths)
    sizes = [len((tmp_path / p).read_text()) if "missing" not in p else 0 for p in paths]
    assert sorted(order) == list(range(len(paths))) and [sizes[i] for i in order] == sorted(sizes, reverse=True)
    results = lint_files(paths, jobs=2)
    assert [r.path for r in results] == paths
    assert results[5].findings and results[5].findings[0].code == "GL000"


def test_an_interrupted_parallel_run_leaves_no_pool_thread_running(tmp_path, monkeypatch):
    """Python's exit hook writes, unlocked, to each process pool's wake-up pipe; if the pool's manager
    thread closes that pipe at the same moment, the exit prints an OSError traceback after
    'interrupted'. The interrupted run therefore lets the manager thread end before it returns."""
    import threading
    import concurrent.futures
    import pytest
    from concurrent.futures import process
    from gather_lint.api import lint_files

    started = []

    class RecordedPool(process.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.append(self)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", RecordedPool)
    paths = []
    for i in range(30):
        path = tmp_path / f"m{i}.py"
        path.write_text("import torch\nx = torch.zeros(3, 4)\ny = x.gather(1, torch.zeros(3, 1, dtype=torch.long))\n")
        paths.append(str(path))

    def interrupt(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        lint_files(paths, jobs=2, progress=interrupt)
    assert started, "the parallel path ran"
    assert not [t for t in threading.enumerate() if isinstance(t, process._ExecutorManagerThread)]
