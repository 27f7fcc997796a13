"""SARIF 2.1.0 for code scanning: rule metadata with help from the rule pages, results, and fixes."""
from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

from . import __version__
from .findings import Finding
from .rule_docs import render, summary
from .rules import ALL_RULES, RULES_BY_CODE

_LEVEL = {"error": "error", "warning": "warning"}
_PARSE_RULE = {"id": "GL000", "name": "parse-error",
               "shortDescription": {"text": "The file could not be read, decoded or parsed"},
               "defaultConfiguration": {"level": "error"}}


def _uri(path: str) -> dict:
    path = path.split(":cell ", 1)[0]  # a notebook cell: the artifact is the notebook
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": path.replace(os.sep, "/"), "uriBaseId": "%SRCROOT%"}


def _region(line, col, end_line, end_col) -> dict:
    return {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col}


def _text_replacements(edit) -> Optional[List[tuple]]:
    """An edit as plain text replacements (region, new text); None for the kinds only a codemod can
    apply (a keyword, a statement rewrite, an operator at the cause)."""
    start, end = (edit.line, edit.column), (edit.end_line, edit.end_column)
    if edit.kind == "append":
        return [(end + end, edit.text)]
    if edit.kind == "wrap_append":
        return [(start + start, "("), (end + end, ")" + edit.text)]
    if edit.kind == "replace":
        return [(start + end, edit.text)]
    return None


def _fixes(f: Finding) -> List[dict]:
    if f.fix is None:
        return []
    parts = [_text_replacements(edit) for edit in f.fix]
    if any(p is None for p in parts):
        return []
    replacements = [{"deletedRegion": _region(*region), "insertedContent": {"text": text}}
                    for part in parts for region, text in part]
    return [{"description": {"text": "apply the suggested change"},
             "artifactChanges": [{"artifactLocation": _uri(f.path), "replacements": replacements}]}]


def document(findings: List[Finding]) -> dict:
    rules = [_PARSE_RULE] + [{
        "id": rule.CODE,
        "name": rule.NAME,
        "shortDescription": {"text": summary(rule)},
        "fullDescription": {"text": " ".join(rule.__doc__.strip().splitlines()[1:]).strip() or summary(rule)},
        "help": {"text": summary(rule), "markdown": render(rule)},
        "defaultConfiguration": {"level": _LEVEL[rule.SEVERITY]},
        "properties": {"tags": ["torch", "correctness"], "fix": rule.FIX or "none"},
    } for rule in ALL_RULES]
    index = {r["id"]: i for i, r in enumerate(rules)}
    results = []
    for f in findings:
        result = {
            "ruleId": f.code,
            "ruleIndex": index.get(f.code, 0),
            "level": _LEVEL.get(f.severity, "warning"),
            "message": {"text": f.message},
            "locations": [{"physicalLocation": {"artifactLocation": _uri(f.path),
                                                "region": _region(f.line, f.column, f.end_line, f.end_column)}}],
        }
        if ":cell " in f.path:
            result["properties"] = {"cell": int(f.path.rsplit(":cell ", 1)[1])}
        fixes = _fixes(f) if f.code in RULES_BY_CODE and ":cell " not in f.path else []
        if fixes:
            result["fixes"] = fixes
        results.append(result)
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "gather-lint", "version": __version__, "semanticVersion": __version__,
                                "informationUri": "https://pypi.org/project/gather-lint/", "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
