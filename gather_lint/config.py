"""`[tool.gather-lint]` in pyproject.toml, found by walking up from the linted paths."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - exercised on 3.9/3.10
    import tomli as tomllib

from .selection import Selection, per_file

DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", "__pycache__", "build", "dist", "node_modules",
    ".eggs", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".gather_lint_cache", "site-packages",
)
_CODE = re.compile(r"^GL\d{0,3}$")
_KNOWN = {"select", "ignore", "extend-select", "extend-ignore", "per-file-ignores", "exclude", "extend-exclude",
          "check-syntax", "force-exclude"}


class ConfigError(Exception):
    """A bad configuration value: the message names the file and the key."""


@dataclass(frozen=True)
class Config:
    selection: Selection = Selection()
    exclude: Tuple[str, ...] = DEFAULT_EXCLUDE
    source: Optional[str] = None  # the pyproject.toml it came from
    root: str = field(default=".")
    # parse every file whole, to report a syntax error in code that cannot hold a site (not parsed otherwise)
    check_syntax: bool = False
    # match files named on the command line against `exclude` too (pre-commit names each changed file)
    force_exclude: bool = False

    def fingerprint(self) -> str:
        return repr((self.selection, self.exclude, self.check_syntax))


def find_pyproject(start_paths: Sequence[str]) -> Optional[str]:
    start = os.path.abspath(start_paths[0] if start_paths and start_paths[0] != "-" else ".")
    directory = start if os.path.isdir(start) else os.path.dirname(start)
    while True:
        candidate = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(candidate) and _has_section(candidate):
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _has_section(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return b"[tool.gather-lint" in handle.read()
    except OSError:
        return False


def load(path: Optional[str]) -> Config:
    if path is None:
        return Config()
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read config: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    if os.path.basename(path) == "pyproject.toml" or "tool" in data:
        section = data.get("tool", {}).get("gather-lint", {})
    else:
        section = data
    return from_mapping(section, path)


def from_mapping(section: dict, path: str) -> Config:
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [tool.gather-lint] must be a table")
    unknown = sorted(set(section) - _KNOWN)
    if unknown:
        raise ConfigError(f"{path}: unknown key '{unknown[0]}' in [tool.gather-lint] (known: {', '.join(sorted(_KNOWN))})")
    select = _codes(section, "select", path) or ("GL",)
    select += _codes(section, "extend-select", path)
    ignore = _codes(section, "ignore", path) + _codes(section, "extend-ignore", path)
    pfi = section.get("per-file-ignores", {})
    if not isinstance(pfi, dict) or not all(isinstance(v, list) for v in pfi.values()):
        raise ConfigError(f"{path}: 'per-file-ignores' must map glob patterns to lists of codes")
    for pattern, codes in pfi.items():
        _check_codes(codes, f"per-file-ignores.\"{pattern}\"", path)
    exclude = _strings(section, "exclude", path)
    exclude = tuple(exclude) if "exclude" in section else DEFAULT_EXCLUDE
    exclude += _strings(section, "extend-exclude", path)
    root = os.path.dirname(os.path.abspath(path))
    check_syntax, force_exclude = _flag(section, "check-syntax", path), _flag(section, "force-exclude", path)
    return Config(Selection(tuple(select), tuple(ignore), per_file(pfi)), exclude, path, root, check_syntax,
                  force_exclude)


def _flag(section: dict, key: str, path: str) -> bool:
    value = section.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(f"{path}: '{key}' must be true or false, got {value!r}")
    return value


def _strings(section: dict, key: str, path: str) -> Tuple[str, ...]:
    value = section.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: '{key}' must be a list of strings, got {value!r}")
    return tuple(value)


def _codes(section: dict, key: str, path: str) -> Tuple[str, ...]:
    values = _strings(section, key, path)
    _check_codes(values, key, path)
    return tuple(v.upper() for v in values)


def _check_codes(values, key: str, path: str) -> None:
    for value in values:
        if not isinstance(value, str) or not _names_a_rule(value.upper()):
            raise ConfigError(f"{path}: '{key}' has {value!r}, which {_NOT_A_CODE}")


def validate_cli_codes(values: List[str], flag: str) -> Tuple[str, ...]:
    for value in values:
        if not _names_a_rule(value):
            raise ConfigError(f"{flag}: {value!r} {_NOT_A_CODE}")
    return tuple(values)


_NOT_A_CODE = "matches no gather-lint code (codes and prefixes: GL, GL0, GL005; `gather-lint rules` lists them)"


def _names_a_rule(code: str) -> bool:
    """A well-formed prefix that matches at least one code: `GL99` would silently select nothing."""
    from .findings import PARSE_ERROR
    from .rules import RULES_BY_CODE

    return bool(_CODE.match(code)) and any(known.startswith(code) for known in (PARSE_ERROR, *RULES_BY_CODE))
