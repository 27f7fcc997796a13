"""`# noqa`, `# noqa: GL005,GL001` on the reported line, and a file-level `# gather-lint: noqa`."""
import re
from typing import Dict, FrozenSet, Optional

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]*(?:[\s,]+[A-Z]+[0-9]*)*))?", re.IGNORECASE)
_FILE_NOQA = re.compile(r"^\s*#\s*gather-lint:\s*noqa\s*$", re.IGNORECASE | re.MULTILINE)

ALL = frozenset({""})  # every code starts with ""


def file_is_exempt(text: str) -> bool:
    return "gather-lint" in text and _FILE_NOQA.search(text) is not None


def noqa_codes(line_text: str) -> Optional[FrozenSet[str]]:
    """Code prefixes a line suppresses (ALL for a bare noqa), or None."""
    if "noqa" not in line_text.lower():
        return None
    match = _NOQA.search(line_text)
    if match is None:
        return None
    codes = match.group("codes")
    if not codes:
        return ALL
    return frozenset(c.upper() for c in re.split(r"[\s,]+", codes) if c)


def suppressed(code: str, line: int, lines, cache: Dict[int, object]) -> bool:
    if line not in cache:
        cache[line] = noqa_codes(lines[line - 1]) if 1 <= line <= len(lines) else None
    codes = cache[line]
    return codes is not None and any(code.startswith(c) for c in codes)
