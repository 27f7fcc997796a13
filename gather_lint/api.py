"""The library API that the CLI and the flake8 plugin are thin shells over."""
from __future__ import annotations

import contextlib
import gc
import os
import signal
from typing import TYPE_CHECKING, Callable, List, Optional, Sequence

from . import notebook
from .cache import Cache
from .config import Config
from .files import UnreadableFile, read_source
from .findings import PARSE_ERROR, FileResult, Finding, Stats
from .static.analyzer import lint_source

if TYPE_CHECKING:  # imported where a pool starts: a run of one job (or of a few files) never needs it
    from concurrent.futures import ProcessPoolExecutor

__all__ = ["lint_text", "lint_file", "lint_files", "Cache", "Config", "Finding", "FileResult"]

_PARALLEL_MIN_FILES = 24  # below this, starting workers costs more than it saves


def lint_text(text: str, path: str = "<stdin>", config: Config = Config(), noqa: bool = True) -> FileResult:
    """Lint source text as if it were the file at `path` (per-file-ignores apply to that path).
    A `.ipynb` path is read as a notebook."""
    select = config.selection.for_path(_relative(path, config))
    if path.endswith(".ipynb"):
        return notebook.lint(text, path, lambda module, p: lint_source(module, p, select, noqa=noqa,
                                                                       check_syntax=config.check_syntax))
    return lint_source(text, path, select, noqa=noqa, check_syntax=config.check_syntax)


def lint_file(path: str, config: Config = Config(), stdin=None, display: Optional[str] = None) -> FileResult:
    shown = display or path
    try:
        text = read_source(path, stdin)
    except UnreadableFile as exc:
        return _not_checked(shown, f"{exc}; it was not checked")
    try:
        return lint_text(text, shown, config)
    except Exception as exc:  # an analysis fault on one file must not stop the others (tests call lint_text)
        return FileResult(shown, [file_fault(shown, exc)], Stats(files=1))


def file_fault(shown: str, exc: Exception) -> Finding:
    """GL000 for a fault outside any one function's analysis (the flake8 plugin reports it too)."""
    return _unchecked(shown, f"internal error while analysing this file ({type(exc).__name__}: {exc}); "
                             "it was not checked; please report it with the file")


def _not_checked(shown: str, message: str) -> FileResult:
    return FileResult(shown, [_unchecked(shown, message)], Stats(files=1))


def _unchecked(shown: str, message: str) -> Finding:
    return Finding(shown, 1, 1, PARSE_ERROR, 1, 1, "error", message)


def lint_files(paths: Sequence[str], config: Config = Config(), jobs: Optional[int] = None,
               progress: Optional[Callable[[int, int], None]] = None, cache: Optional[Cache] = None) -> List[FileResult]:
    """Lint many files, in parallel when it pays; results come back in the order of `paths`."""
    if cache is None:
        return _lint_uncached(paths, config, jobs, progress)
    results: List[Optional[FileResult]] = [cache.get(p) for p in paths]
    misses = [i for i, r in enumerate(results) if r is None]
    fresh = _lint_uncached([paths[i] for i in misses], config, jobs, progress)
    for i, result in zip(misses, fresh):
        results[i] = result
        cache.put(paths[i], result)
    cache.save()
    return results


def _lint_uncached(paths, config, jobs, progress) -> List[FileResult]:
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(paths) < _PARALLEL_MIN_FILES:
        results = []
        for done, path in enumerate(paths, 1):
            results.append(lint_file(path, config))
            if progress:
                progress(done, len(paths))
        return results
    from concurrent.futures import ProcessPoolExecutor  # with multiprocessing: ~15% of the start-up

    chunk = max(1, min(16, len(paths) // (jobs * 4)))
    order = _largest_first(paths)
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker)
    try:
        results: List[Optional[FileResult]] = [None] * len(paths)
        jobs_in_order = [(paths[i], config) for i in order]
        for done, (i, result) in enumerate(zip(order, pool.map(_lint_one, jobs_in_order, chunksize=chunk)), 1):
            results[i] = result
            if progress:
                progress(done, len(paths))
    except BaseException:  # Ctrl-C (KeyboardInterrupt) or a fault: stop now, not after the queued files
        _stop_workers(pool)
        raise
    pool.shutdown()
    return results


def _start_worker() -> None:
    """A worker leaves Ctrl-C to the parent (a terminal sends SIGINT to the whole process group): the
    parent stops every worker at once, and no worker prints a KeyboardInterrupt traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    collect_rarely()


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the workers and drop the queued files: shutdown() alone would let every queued file be linted
    first, and the workers would run on after the parent exits."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # the executor has no public handle
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() drops it
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
    for worker in workers:
        worker.join(timeout=5)
    # The executor's manager thread closes its wake-up pipe as it ends; Python's exit hook writes to that
    # pipe unlocked, and if the two race the exit prints an OSError traceback. Let the thread end first.
    if manager is not None:
        manager.join(timeout=5)


def _largest_first(paths: Sequence[str]) -> List[int]:
    """Positions of `paths`, largest file first: the big model files then start early, and the workers
    end together on small files instead of one finishing a large file alone."""
    def size(i: int) -> int:
        try:
            return os.stat(paths[i]).st_size
        except OSError:  # reported when it is read
            return 0
    return sorted(range(len(paths)), key=lambda i: (-size(i), i))


def collect_rarely() -> None:
    """For a process that only lints (a worker): linting makes millions of short-lived objects, trees and
    facts freed by reference counting, and the cycle collector's frequent passes over them found almost
    nothing while costing a few percent of the run. Collect rarely, and never walk what was imported."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


@contextlib.contextmanager
def collecting_rarely():
    """collect_rarely() for the duration (the command line's own process), then as before."""
    previous = gc.get_threshold()
    collect_rarely()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*previous)


def _lint_one(job) -> FileResult:
    path, config = job
    return lint_file(path, config)


def _relative(path: str, config: Config) -> str:
    if config.source is None or path in ("-", "<stdin>"):
        return path
    try:
        return os.path.relpath(os.path.abspath(path), config.root)
    except ValueError:
        return path
