"""gather-lint's fixes as libcst codemods. Importing this package imports libcst: only fixing does.

- one codemod per fix kind, each rewriting the nodes an edit names by position
  (gather_lint.codemods.expression for the index and dim edits; the rule-specific ones live beside
  their rule: gather_lint.rules.gl008_fix, gl013_fix, gl014_fix, gl015_fix);
- gather_lint.codemods.engine applies a file's fixes and keeps only those that, re-linted, remove
  their finding and add none;
- gather_lint.codemods.command.GatherLintFixes runs it all under ``python -m libcst.tool codemod``.
"""
