"""Op-table coverage on real code: of the tensor-op calls the analysis evaluates, the share that has an
entry in the op table (an entry that ran may still find the result unknown, `x.dim()` of an unknown shape:
that count is shown apart).

    python benchmarks/op_coverage.py [TREE ...] [--top N] [--unknown]

Default tree: `corpus/transformers`. Each file is linted as the CLI lints it, with the interpreter's census
on (gather_lint/static/op_census.py), so "the calls the analysis sees" are exactly those it evaluates: calls
in functions and blocks the prefilter skips are not counted. A call is counted once per site however often
it runs. Counted:

  torch.X(...)           X a torch function (torch._C._VariableFunctions, torch.functional)
  F.X(...)               X a torch.nn.functional function, however spelled (torch.nn.functional.X, F.X)
  t.X(...)               X a torch.Tensor method, on a receiver the analysis holds as a tensor

A function whose first argument the analysis does not hold is shown apart ("unknown input"): no entry
could give its result, as no method on an unknown receiver is counted. This script imports torch to list
the names; the linter does not.
"""
from __future__ import annotations

import argparse
import inspect
import os
import sys
import time
from collections import Counter
from typing import Dict, Iterable, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from gather_lint.api import lint_file  # noqa: E402
from gather_lint.config import Config  # noqa: E402
from gather_lint.files import discover  # noqa: E402
from gather_lint.static import op_census  # noqa: E402

DEFAULT_TREE = os.path.join("corpus", "transformers")
# torch.nn.functional's names that are helpers of the module, not ops
_F_HELPERS = {"Optional", "assert_int_or_pair", "boolean_dispatch", "handle_torch_function", "has_torch_function",
              "has_torch_function_unary", "has_torch_function_variadic"}


def op_names() -> Dict[str, Set[str]]:
    """Public op names per form, read from torch."""
    import torch
    import torch.nn.functional as F

    functions = {n for n in dir(torch._C._VariableFunctions) if not n.startswith("_")} | set(torch.functional.__all__)
    functional = {n for n in dir(F) if not n.startswith("_") and n not in _F_HELPERS
                  and callable(getattr(F, n)) and not inspect.isclass(getattr(F, n)) and not inspect.ismodule(getattr(F, n))}
    methods = {n for n in dir(torch.Tensor) if not n.startswith("_") and callable(inspect.getattr_static(torch.Tensor, n))}
    return {"torch": functions, "F": functional, "method": methods}


def census_of(tree: str) -> Tuple[Dict[tuple, str], int, float]:
    """(outcome per site, files linted, seconds)."""
    config = Config()
    files, missing = discover([tree], config.exclude)
    if missing:
        raise SystemExit(f"op_coverage.py: no such tree: {tree}")
    census = op_census.start()
    started = time.perf_counter()
    try:
        for path in files:
            census.file = path
            lint_file(path, config)
    finally:
        op_census.stop()
    return census.sites, len(files), time.perf_counter() - started


def table(tree: str, sites: Dict[tuple, str], names: Dict[str, Set[str]], files: int, seconds: float, top: int,
          unknown_too: bool = False) -> str:
    counted = {key: outcome for key, outcome in sites.items() if key[4] in names[key[3]]}
    outcomes = Counter(counted.values())
    valued, unknown, missing = (outcomes[k] for k in (op_census.COVERED, op_census.UNKNOWN_RESULT, op_census.MISSING))
    total = valued + unknown + missing
    share = 100.0 * (valued + unknown) / total if total else 100.0
    by_form = Counter((key[3], outcome) for key, outcome in counted.items())
    lines = [f"{tree}: {files} files in {seconds:.0f}s",
             f"  covered {valued + unknown}/{total} = {share:.1f}%   (of them the entry found the result unknown: "
             f"{unknown}; unknown input, not counted: {outcomes[op_census.UNKNOWN_INPUT]})"]
    for form in ("torch", "F", "method"):
        c = by_form[(form, op_census.COVERED)] + by_form[(form, op_census.UNKNOWN_RESULT)]
        lines.append(f"    {form:<7} {c:>6}/{c + by_form[(form, op_census.MISSING)]:<6}")
    shown = [(op_census.MISSING, "top missing ops")]
    if unknown_too:
        shown.append((op_census.UNKNOWN_RESULT, "entries finding the result unknown"))
    for outcome, title in shown:
        found = Counter(_label(key) for key, got in counted.items() if got == outcome)
        if found:
            lines.append(f"  {title} (of {len(found)}):")
            lines.extend(f"    {count:>6}  {name}" for name, count in found.most_common(top))
    return "\n".join(lines)


def _label(key: tuple) -> str:
    form, name = key[3], key[4]
    return {"torch": f"torch.{name}", "F": f"F.{name}"}.get(form, f".{name}()")


def main(argv: Iterable[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", default=[DEFAULT_TREE])
    parser.add_argument("--top", type=int, default=25, help="missing ops listed per tree (default 25)")
    parser.add_argument("--unknown", action="store_true", help="also list the ops whose entry found the result unknown")
    args = parser.parse_args(list(argv) if argv is not None else None)
    names = op_names()
    for tree in args.trees:
        if not os.path.isdir(tree):
            print(f"op_coverage.py: {tree} is not a directory", file=sys.stderr)
            return 2
    for tree in args.trees:
        sites, files, seconds = census_of(tree)
        print(table(tree, sites, names, files, seconds, args.top, args.unknown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
