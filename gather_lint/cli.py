"""`gather-lint`: the command line, a thin shell over :mod:`gather_lint.api`."""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

from . import __version__, api, report
from .config import Config, ConfigError, find_pyproject, load, validate_cli_codes
from .exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, interrupted
from .files import discover, explicitly_excluded
from .findings import Stats
from .selection import Selection, parse_codes



class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 with usage: keep that, never a traceback
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"gather-lint: error: {message}\n")


_SUBCOMMANDS = """subcommands:
  gather-lint rules               the rule catalogue
  gather-lint rule CODE           one rule's page (also: explain CODE)
  gather-lint shapes FILE[:LINE]  every tensor fact per function and where it came from"""


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="gather-lint", description="Find torch gather/scatter-family mistakes before they run.",
                epilog=_SUBCOMMANDS, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="*", default=None, help="files or directories to lint ('-' for stdin); default: .")
    p.add_argument("--format", choices=report.FORMATS, default="text", help="output format (default: text)")
    p.add_argument("--select", help="comma-separated code prefixes to report (default: GL)")
    p.add_argument("--ignore", help="comma-separated code prefixes not to report")
    p.add_argument("--extend-select", help="code prefixes to add to the selection")
    p.add_argument("--exclude", help="comma-separated glob patterns of paths to skip (replaces the defaults)")
    p.add_argument("--force-exclude", action="store_true",
                   help="skip excluded paths also when they are named on the command line (pre-commit names each file)")
    p.add_argument("--config", help="read settings from this TOML file instead of the nearest pyproject.toml")
    p.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    p.add_argument("--stdin-filename", help="the path to report for code read from stdin")
    p.add_argument("--jobs", "-j", type=int, default=None, help="worker processes (default: all cores)")
    p.add_argument("--diff", action="store_true", help="show the fixes as a unified diff; change nothing")
    p.add_argument("--fix", action="store_true", help="apply the fixes in place (stdin: print the fixed code)")
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes that change a result's shape")
    p.add_argument("--no-cache", action="store_true", help="do not read or write .gather_lint_cache/")
    p.add_argument("--stats", action="store_true", help="print how many call sites had known shapes")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when problems are found")
    p.add_argument("--check-syntax", action="store_true",
                   help="parse every file whole and report its syntax errors (GL000), also where no op is named")
    p.add_argument("--quiet", "-q", action="store_true", help="do not print the summary line")
    p.add_argument("--version", action="version", version=f"gather-lint {__version__}")
    return p


def main(argv: Optional[List[str]] = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # the reader went away (`gather-lint . | head`): stop quietly; stdout goes to devnull so that
        # Python's own flush at exit does not raise again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FINDINGS
    except KeyboardInterrupt:  # the workers are already stopped
        return interrupted()


def _main(argv: Optional[List[str]]) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _subcommand(argv)
    if isinstance(command, str):
        return _usage(command)
    if command and command[0] == "shapes":
        return _shapes_command(command[1:])
    if command:
        return _rule_command(command)
    args = build_parser().parse_args(argv)
    paths = args.paths or ["."]
    if args.jobs is not None and args.jobs < 1:
        return _usage("--jobs must be at least 1")
    try:
        config = _config(args, paths)
    except ConfigError as exc:
        return _usage(str(exc))
    root = config.root if config.source else "."
    files, missing = discover(paths, config.exclude, config.force_exclude, root)
    if ("-" in files and config.force_exclude and args.stdin_filename
            and explicitly_excluded(args.stdin_filename, config.exclude, root)):
        files.remove("-")  # an editor's buffer of an excluded file: nothing to report; --fix hands it back as it came
        if args.fix:
            _echo_stdin()
    for path in missing:
        print(f"gather-lint: error: {path}: no such file or directory", file=sys.stderr)
    if missing and not files:
        return EXIT_USAGE  # nothing was linted: a summary would only contradict the error
    if args.diff or args.fix:
        return _fix_command(args, config, files, missing)
    results = []
    if "-" in files:
        results.append(api.lint_file("-", config, stdin=sys.stdin, display=args.stdin_filename or "-"))
        files = [f for f in files if f != "-"]
    cache = None if args.no_cache else api.Cache(config.root if config.source else os.getcwd(), config.fingerprint())
    with api.collecting_rarely():
        results.extend(api.lint_files(files, config, jobs=args.jobs, progress=_progress_bar(), cache=cache))
    findings = sorted(f for r in results for f in r.findings)
    colour = args.format in report.WITH_SUMMARY and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    report.write(findings, args.format, sys.stdout, colour)
    if args.stats:
        _print_stats(results)
    if not args.quiet and args.format in report.WITH_SUMMARY:
        sys.stdout.flush()  # the findings first, then the summary, when both go to one terminal or pipe
        print(report.summary(findings, len(results), missing=len(missing)), file=sys.stderr)
    if missing:
        return EXIT_USAGE
    return EXIT_FINDINGS if findings and not args.exit_zero else EXIT_CLEAN


_COMMANDS = {"rules": "gather-lint rules", "rule": "gather-lint rule CODE", "explain": "gather-lint explain CODE",
             "shapes": "gather-lint shapes FILE[:LINE]"}
# options that only tune how a lint run works, not what a subcommand prints: accepted beside one, so that an
# alias such as `gather-lint --no-cache` still reaches `rule GL005`; any other option would be ignored silently
_MOOT_FOR_COMMANDS = {"no_cache", "quiet", "jobs", "isolated", "config", "exit_zero"}


def _subcommand(argv: List[str]):
    """[name, operands...] when argv names a subcommand, with options before or after it; None for a lint
    run; a message when an option given would change nothing there."""
    if not any(arg in _COMMANDS for arg in argv):
        return None
    if argv[0] in _COMMANDS and not any(arg.startswith("-") and arg != "-" for arg in argv[1:]):
        return argv
    parser = build_parser()
    args, defaults = parser.parse_intermixed_args(argv), parser.parse_args([])
    if not args.paths or args.paths[0] not in _COMMANDS:
        return None
    name = args.paths[0]
    given = [f"--{dest.replace('_', '-')}" for dest, value in vars(args).items()
             if dest != "paths" and dest not in _MOOT_FOR_COMMANDS and value != getattr(defaults, dest)]
    if given:
        return (f"{', '.join(given)} does not apply to `{name}`; call it as `{_COMMANDS[name]}` "
                f"(to lint a path named {name}, write ./{name})")
    return args.paths


def _echo_stdin() -> None:
    """stdin to stdout byte for byte (as text where a caller replaced the streams with text-only ones)."""
    if hasattr(sys.stdin, "buffer") and hasattr(sys.stdout, "buffer"):
        sys.stdout.flush()
        sys.stdout.buffer.write(sys.stdin.buffer.read())
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(sys.stdin.read())


def _config(args, paths) -> Config:
    if args.isolated:
        config = Config()
    else:
        config = load(args.config or find_pyproject(paths))
    selection = config.selection
    if args.select:
        selection = Selection(validate_cli_codes(parse_codes(args.select), "--select"), selection.ignore, selection.per_file_ignores)
    if args.extend_select:
        selection = Selection(selection.select + validate_cli_codes(parse_codes(args.extend_select), "--extend-select"),
                              selection.ignore, selection.per_file_ignores)
    if args.ignore:
        selection = Selection(selection.select, selection.ignore + validate_cli_codes(parse_codes(args.ignore), "--ignore"),
                              selection.per_file_ignores)
    exclude = tuple(p.strip() for p in args.exclude.split(",") if p.strip()) if args.exclude else config.exclude
    return Config(selection, exclude, config.source, config.root, config.check_syntax or args.check_syntax,
                  config.force_exclude or args.force_exclude)


def _fix_command(args, config, files, missing) -> int:
    """--diff prints what --fix would change (exit 1 if anything); --fix writes it and reports what is left."""
    from . import fixes
    from .files import UnreadableFile, UnwritableFile, encoded, read_source_and_encoding, write_whole

    changed, remaining, held, kept_back = 0, [], 0, 0
    for path in files:
        try:
            text, encoding = read_source_and_encoding(path, sys.stdin)
        except UnreadableFile as exc:
            print(f"gather-lint: error: {path}: {exc}", file=sys.stderr)
            continue
        shown = args.stdin_filename or path if path == "-" else path
        lint = lambda candidate, shown=shown: api.lint_text(candidate, shown, config).findings  # noqa: E731
        result = api.lint_text(text, shown, config)
        try:
            if shown.endswith(".ipynb"):
                from . import notebook_fixes

                fixed, done = notebook_fixes.apply_fixes(text, shown, result.findings, args.unsafe_fixes, lint)
            else:
                fixed, done = fixes.apply(text, result.findings, unsafe=args.unsafe_fixes, lint=lint)
        except fixes.FixesUnavailable as exc:
            return _usage(str(exc))
        left = lint(fixed) if done else result.findings
        held += fixes.held_back(left, args.unsafe_fixes)
        tried = len(fixes.applicable(left, args.unsafe_fixes))  # before a failed write puts every finding back
        if args.diff:
            if done:
                sys.stdout.write(fixes.unified_diff(shown, text, fixed))
        elif path == "-":
            sys.stdout.write(fixed)
        elif done:
            try:
                write_whole(path, encoded(fixed, encoding))  # a file it cannot hold is left untouched
            except UnwritableFile as exc:
                print(f"gather-lint: error: {path}: {exc}", file=sys.stderr)
                done, left = [], result.findings
            except OSError as exc:
                print(f"gather-lint: error: {path}: cannot write the fixes ({exc.strerror or exc})", file=sys.stderr)
                done, left = [], result.findings
        changed += bool(done)
        remaining.extend(left)
        kept_back += tried
    files_word = f"{changed} file{'s' if changed != 1 else ''}"
    notes = _held_back_note(held) + _unfixed_note(fixes.without_fix(remaining), kept_back)
    if args.diff:
        print(f"{files_word} would be changed.{notes}", file=sys.stderr)
        return EXIT_USAGE if missing else (EXIT_FINDINGS if changed else EXIT_CLEAN)
    if "-" not in files:
        report.write(sorted(remaining), args.format, sys.stdout, False)
    print(f"Fixed {files_word}; {len(remaining)} problem{'s' if len(remaining) != 1 else ''} left.{notes}",
          file=sys.stderr)
    if missing:
        return EXIT_USAGE
    return EXIT_FINDINGS if remaining and not args.exit_zero else EXIT_CLEAN


def _held_back_note(held: int) -> str:
    """What a user needs to know when fixes exist but were not applied: how many, and how to get them."""
    if not held:
        return ""
    return (f" {held} finding{'s have' if held != 1 else ' has'} an unsafe fix held back; "
            f"add --unsafe-fixes to apply {'them' if held != 1 else 'it'} (review the result).")


def _unfixed_note(unfixable, kept_back: int) -> str:
    """Why findings were left besides a held-back unsafe fix: none exists for them (with their codes), or
    a fix was tried and not kept (the fixed code did not parse, or still had the finding, or had a new one)."""
    note = ""
    if unfixable:
        codes = ", ".join(sorted({f.code for f in unfixable}))
        note += f" {len(unfixable)} finding{'s have' if len(unfixable) != 1 else ' has'} no automatic fix ({codes})."
    if kept_back:
        note += (f" {kept_back} fix{'es were' if kept_back != 1 else ' was'} not applied: the fixed code did not parse, "
                 "or still had the finding, or had a new one.")
    return note


def _shapes_command(argv: List[str]) -> int:
    """`gather-lint shapes FILE[:LINE]`: every tensor fact per function and where it came from."""
    from . import notebook, shapes_listing
    from .files import UnreadableFile, read_source
    from .static.analyzer import explain_shapes

    if len(argv) != 1:
        return _usage("usage: gather-lint shapes FILE[:LINE]")
    path, _, line_text = argv[0].partition(":")
    if line_text and not line_text.isdigit():
        return _usage(f"{argv[0]}: LINE must be a number")
    if line_text and path.endswith(".ipynb"):
        return _usage(f"{argv[0]}: a notebook's facts are listed for all its cells; give the notebook without :LINE")
    faults: list = []  # a function whose analysis fails is given up alone; the others are still listed
    try:
        text = read_source(path)
        if path.endswith(".ipynb"):  # per cell, at lines within the cells, as findings are placed
            listing = shapes_listing.render_blocks(notebook.shape_blocks(text, path, explain_shapes, faults))
        else:
            listing = shapes_listing.render(path, explain_shapes(text, path, int(line_text) if line_text else None, faults))
    except UnreadableFile as exc:
        return _usage(f"{path}: {exc}")
    except notebook.NotebookError as exc:
        return _usage(f"{path}: {exc}")
    except (SyntaxError, ValueError) as exc:
        return _usage(f"{path}: cannot parse: {exc}")
    except Exception as exc:  # a fault outside any one function: said plainly, never as a traceback
        print(f"gather-lint: error: {path}: internal error while analysing this file ({type(exc).__name__}: {exc}); "
              "please report it with the file", file=sys.stderr)
        return EXIT_FINDINGS
    sys.stdout.write(listing)
    for f in faults:
        print(f"gather-lint: error: {f.path}:{f.line}: {f.message}", file=sys.stderr)
    return EXIT_FINDINGS if faults else EXIT_CLEAN


def _rule_command(argv: List[str]) -> int:
    """`gather-lint rules` lists the catalogue; `gather-lint rule GL005` prints one rule's page."""
    from . import rule_docs

    if argv[0] == "rules" and len(argv) == 1:
        sys.stdout.write(rule_docs.table())
        return EXIT_CLEAN
    if argv[0] in ("rule", "explain") and len(argv) == 2:  # `explain` as other linters spell it
        if argv[1].upper() == "GL000":  # the notice that some code was not checked
            sys.stdout.write(rule_docs.GL000_PAGE)
            return EXIT_CLEAN
        rule = rule_docs.lookup(argv[1])
        if rule is None:
            return _usage(f"unknown rule {argv[1]!r}; `gather-lint rules` lists them")
        sys.stdout.write(rule_docs.render(rule))
        return EXIT_CLEAN
    return _usage("usage: gather-lint rules | gather-lint rule CODE")


def _usage(message: str) -> int:
    print(f"gather-lint: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _progress_bar():
    """A progress bar on stderr for long runs on a terminal; nothing when output is piped."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total < 200:
            return
        if done == total or done % 50 == 0:
            width = 30
            filled = width * done // total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} files")
            if done == total:
                sys.stderr.write("\r" + " " * (width + 30) + "\r")
            sys.stderr.flush()

    return show


def _print_stats(results) -> None:
    total = Stats()
    for r in results:
        total.add(r.stats)
    sites = total.sites or 1
    print(
        f"files: {total.files}, parsed (mention an op): {total.parsed}, call sites: {total.sites}\n"
        f"  input shape known: {total.input_shape_known} ({100 * total.input_shape_known // sites}%), "
        f"index shape known: {total.index_shape_known} ({100 * total.index_shape_known // sites}%), "
        f"both: {total.both_known} ({100 * total.both_known // sites}%)",
        file=sys.stderr,
    )
    if total.blind_spots:
        print("  most common reasons a shape was unknown:", file=sys.stderr)
        ranked = sorted(total.blind_spots.items(), key=lambda kv: (-kv[1], kv[0]))
        for spot, count in ranked[:8]:
            print(f"    {count:6d}  {spot}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
