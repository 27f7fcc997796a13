"""Startup hook: `GATHER_LINT_RUNTIME=raise|warn python script.py` checks a script that never imports gather_lint.

The installed `gather_lint_runtime.pth` imports this module only when the variable is set (the
interpreter runs .pth import lines at startup, the way coverage measures subprocesses). The runtime,
and the mode it enables, are loaded right after torch is first imported, so a process that never uses
torch pays nothing and torch's own import is not slowed or reordered. A value the runner would reject
(`1`, `yes`) turns nothing on: it is named in one warning on stderr instead of being ignored silently.
"""
import importlib.abc
import importlib.util
import sys

from .runtime_request import requested


def _start() -> None:
    import gather_lint.runtime  # noqa: F401 (importing it enables the mode GATHER_LINT_RUNTIME asks for)


class _StartAfter(importlib.abc.Loader):
    """torch's own loader, then the runtime: everything else is delegated unchanged."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        module.__loader__ = module.__spec__.loader = self._loader  # leave no trace on torch
        _start()

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _TorchWatcher(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch":
            return None
        sys.meta_path.remove(self)  # one use: find torch's real spec without finding ourselves
        spec = importlib.util.find_spec("torch")
        if spec is not None and spec.loader is not None:
            spec.loader = _StartAfter(spec.loader)
        return spec


def install() -> None:
    if not requested():
        return
    if "torch" in sys.modules:
        _start()
    elif not any(isinstance(f, _TorchWatcher) for f in sys.meta_path):
        sys.meta_path.insert(0, _TorchWatcher())
