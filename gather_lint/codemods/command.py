"""gather-lint's fixes for people who drive libcst themselves:

    python -m libcst.tool codemod --no-format -x gather_lint.codemods.command.GatherLintFixes src/
    python -m libcst.tool codemod --no-format -x gather_lint.codemods.command.GatherLintFixes --unsafe-fixes src/

`-x` makes libcst.tool import the class by its full module path (no .libcst.codemod.yaml needed);
`--no-format` keeps your formatting (libcst.tool otherwise pipes the result through black). Each
file is linted with the settings of its nearest pyproject.toml and fixed as `gather-lint --fix` would.
"""
from __future__ import annotations

import argparse

import libcst as cst
from libcst.codemod import CodemodCommand, CodemodContext, SkipFile

from ..api import lint_text
from ..config import Config, ConfigError, find_pyproject, load
from .engine import apply
from ..fixes import applicable


class GatherLintFixes(CodemodCommand):
    DESCRIPTION = "Apply gather-lint's fixes (safe ones; --unsafe-fixes for the rest)."

    def __init__(self, context: CodemodContext, unsafe_fixes: bool = False) -> None:
        super().__init__(context)
        self.unsafe_fixes = unsafe_fixes

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument("--unsafe-fixes", action="store_true", default=False,
                                help="also apply fixes that change a result's shape or values")

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        path = self.context.filename or "<stdin>"
        try:  # the file's own [tool.gather-lint] settings (select, ignore, per-file-ignores), as the CLI reads them
            config = load(find_pyproject([path])) if path != "<stdin>" else Config()
        except ConfigError as exc:
            raise SkipFile(str(exc)) from None
        text = tree.code

        def lint(candidate: str):
            return lint_text(candidate, path, config).findings

        fixed, done = apply(text, lint(text), lint, lambda found: applicable(found, self.unsafe_fixes))
        if not done:
            raise SkipFile("no gather-lint fix applies")
        for f in done:
            self.context.warnings.append(f"fixed {f.code} at line {f.line}")
        return cst.parse_module(fixed)
