"""Per-file results cache in `.gather_lint_cache/`, keyed by tool version and configuration.

An entry is reused while the file's size and modification time are unchanged, so a warm run
stats files instead of reading them. Any error reading or writing the cache only costs speed.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict
from typing import Dict, Optional

from . import __version__
from .findings import Edit, FileResult, Finding, Stats

CACHE_DIR = ".gather_lint_cache"


def _code_stamp() -> str:
    """Size and mtime of every module of this package: results from other analyzer code are never reused."""
    package = os.path.dirname(os.path.abspath(__file__))
    parts = []
    for directory, _, names in os.walk(package):
        for name in sorted(names):
            if name.endswith(".py"):
                st = os.stat(os.path.join(directory, name))
                parts.append(f"{os.path.relpath(os.path.join(directory, name), package)}:{st.st_size}:{st.st_mtime_ns}")
    return "|".join(sorted(parts))


class Cache:
    def __init__(self, root: str, fingerprint: str):
        key = hashlib.sha256(f"{__version__}|{fingerprint}|{_code_stamp()}".encode()).hexdigest()[:16]
        self.directory = os.path.join(root, CACHE_DIR)
        self.path = os.path.join(self.directory, f"results-{key}.json")
        self.entries: Dict[str, dict] = {}
        self.dirty = False
        try:
            with open(self.path, encoding="utf-8") as handle:
                data = json.load(handle)
            if isinstance(data, dict):
                self.entries = data
        except (OSError, ValueError):
            pass

    @staticmethod
    def _stamp(path: str) -> Optional[list]:
        try:
            st = os.stat(path)
        except OSError:
            return None
        return [st.st_size, st.st_mtime_ns]

    def get(self, path: str) -> Optional[FileResult]:
        entry = self.entries.get(os.path.abspath(path))
        if entry is None or entry.get("stamp") != self._stamp(path):
            return None
        try:
            findings = [Finding(**{**f, "path": path + f["path"], "fix": tuple(Edit(*e) for e in f["fix"]) if f["fix"] else None,
                                   "shapes": tuple(map(tuple, f["shapes"])),
                                   "underline": tuple(f["underline"]) if f["underline"] else None})
                        for f in entry["findings"]]
            return FileResult(path, findings, Stats(**entry["stats"]))
        except (TypeError, KeyError):
            return None

    def put(self, path: str, result: FileResult) -> None:
        stamp = self._stamp(path)
        if stamp is None:
            return
        self.entries[os.path.abspath(path)] = {
            "stamp": stamp,
            # paths are stored relative to the file: "" or a notebook's ":cell 3"
            "findings": [{**asdict(f), "path": f.path[len(path):] if f.path.startswith(path) else ""}
                         for f in result.findings],
            "stats": asdict(result.stats),
        }
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            os.makedirs(self.directory, exist_ok=True)
            gitignore = os.path.join(self.directory, ".gitignore")
            if not os.path.exists(gitignore):
                with open(gitignore, "w", encoding="utf-8") as handle:
                    handle.write("*\n")
            fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.entries, handle)
            os.replace(tmp, self.path)
            for name in os.listdir(self.directory):  # results of other versions or configs are dead weight
                if name.startswith("results-") and os.path.join(self.directory, name) != self.path:
                    os.remove(os.path.join(self.directory, name))
        except OSError:
            pass
