"""Lint one source text: prefilter, parse, run the interpreter on every function, collect findings."""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from typing import Callable, Dict, List, Optional

from ..contract import Site, Violation, sizes_by_name
from ..findings import PARSE_ERROR, Edit, FileResult, Finding, Stats
from ..noqa import file_is_exempt, suppressed
from ..notes import fix_sentence, shown_source, site_shapes
from ..ops import OP_NAMES
from ..rules import check
from . import advanced_index_sites, advanced_indexing, column_key_lookups, embedding_lookups, index_copies, index_values, module_constants, normalised_consumers, one_hot_pick, top_k_filter
from . import class_targets, dropped_dims, global_facts, own_max_sizes
from . import autograd_backward, backward_grads, ceil_floor_weights, distribution_values, head_columns, padded_last_position
from . import left_padding, mask_positions, permutation_order, rolled_labels, shared_end_positions, sign_blind_penalty
from . import op_counts, overwritten_tables, table_mixtures, top_one_paths
from . import caller_facts, fix_names
from . import scope_faults, script_drivers, torch_aliases
from .calls import MAX_DEPTH, ModuleContext
from .file_blocks import FileBlocks, WholeFile, on_big_stack, parse
from .interpreter import Interpreter
from .source import SourceFile
from . import library_causal_lms, own_analyses, table_slices, text_scan, token_losses, token_shift, tree_walk, vocab_growth
from .text_scan import file_test

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef)


_STEMS = ("gather", "scatter", "index_", "take_along_dim")  # every op name starts with one
_AUGMENTED_INDEX = re.compile(r"\] ?[-+]=")  # x[ids] += v (GL013); one scan, from `]` to `]`
# repeated_indices.py's marks: floats rounded to ints, bucket numbers, unique's inverse
_ROUNDED_MARKS = ("return_inverse", "rounding_mode", "bucketize", "searchsorted")  # rare enough to cost nothing
_MINUS_ONE_FILL = re.compile(r"value\s*=\s*-1\b")  # an explicit -1 fill
# `.round().long()`, `.floor().int()`: pixel and voxel coordinates, spelled rarely enough to cost nothing
_ROUNDED_CAST = re.compile(r"\.(?:round|floor|ceil|trunc)\(\)\s*\.(?:long|int|to|type)\(")


@file_test
def _reads_what_it_writes(text: str) -> bool:
    """A line `x[i] = ... x[i] ...` (GL013's read-modify-write), found without a regex backreference. Its
    key must be able to hold one index tensor: `x[:, 0] = x[:, 0] * s` and `d["ids"] = d["ids"][1:]`
    cannot repeat a position (the check reads no tuple key either)."""
    start = text.find("] = ")
    while start != -1:
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start)
        line_end = len(text) if line_end == -1 else line_end
        left = text[line_start:start + 1].strip()
        if "[" in left and left in text[start + 4:line_end]:
            key = text_scan.subscript_key(text, start)
            if key is None or text_scan.may_hold_tensor(key, tuples=False):
                return True
        start = text.find("] = ", line_end)
    return False


@file_test
def _augments_by_index(text: str) -> bool:
    """`x[ids] += v` (GL013) with a key that can hold an index tensor (not `x[0] += 1`, `x[:, :2] -= m`)."""
    for m in _AUGMENTED_INDEX.finditer(text):
        key = text_scan.subscript_key(text, m.start())
        if key is None or text_scan.may_hold_tensor(key):
            return True
    return False


@file_test
def names_an_op(text: str) -> bool:
    """Files that never name an op cannot have a site: they are skipped before parsing."""
    return text_scan.has_word(text, _STEMS, OP_NAMES)


@file_test
def _padding(text: str) -> bool:
    """The ignore-index convention (-100) or an explicit -1 fill."""
    return any(text_scan.followed_by_boundary(text, at + 4) for at in text_scan.positions(text, "-100")) \
        or text_scan.any_match(text, "value", _MINUS_ONE_FILL)


@file_test
def local_trigger(text: str) -> bool:
    """Patterns of the local rules that need no family call: x[i] += v and x[i] = f(x[i]) (GL013),
    a lookup next to a padding literal (GL011), x[:, idx] (GL017)."""
    return any(test(text) for test, _ in _LOCAL_PATTERNS)


def _narrowed(patterns, text: str) -> tuple:
    """The tests of `patterns` that can hold on a part of `text` (a block, a function): those whose test of
    the whole text holds. Each pattern is (test, None) for a test that holds on the whole wherever it holds
    on a part, or (test, a weaker test that does). A file's blocks then run only the tests its text passed."""
    return tuple(test for test, whole in patterns if (whole or test)(text))


@file_test
def _pads_a_lookup(text: str) -> bool:
    """GL011: an embedding or one_hot beside a padding literal, in one function: a model class building its
    `nn.Embedding` in __init__ and masking labels with -100 in forward pads no lookup."""
    def pads(part: str) -> bool:
        return ("one_hot" in part or "mbedding" in part) and _padding(part)
    return pads(text) and any(pads(part) for part in text_scan.parts(text))


@file_test
def _reads_whole_file(text: str) -> bool:
    """Checks that parse the whole file themselves (their patterns name no op): the blocks kept for the
    others do not matter to them, and keeping theirs would make every caller of those blocks analysed."""
    return padded_last_position.spelled_in(text) or mask_positions.spelled_in(text) or left_padding.spelled_in(text)


@file_test
def _read_by_syntax(chunk: str) -> bool:
    """Blocks the syntax-only checks read whether or not they spell `torch` (`nn.CrossEntropyLoss()`)."""
    return any(test(chunk) for test, _ in _SYNTAX_PATTERNS)


@file_test
def fills_buffer(text: str) -> bool:
    """A zeros buffer written by index_put_, or by subscript next to bucket numbers or unique's
    inverse (GL013's overwrite_writes.py). Substring tests of rare words only: admitting every file
    with `zeros`, `] = ` and a `.long()` or `floor(` cost ~13% on transformers. Subscript writes in
    blocks analysed for another reason (a family call, `+=`) are checked all the same."""
    return _fresh_buffer(text) and ("index_put" in text or ("] = " in text and _repeat_marks(text)))


@file_test
def _repeat_marks(text: str) -> bool:
    """Positions that can repeat are made here: bucket numbers, unique's inverse, rounded coordinates (also
    a quotient cast to ints on its line: `((xyz - lo) / cell).long()`, voxel coordinates)."""
    return any(m in text for m in _ROUNDED_MARKS) or ("()." in text and _ROUNDED_CAST.search(text) is not None) \
        or _cast_quotient(text)


def _cast_quotient(text: str) -> bool:
    """`(a / b).long()` or `.int()` on one line."""
    for cast in (").long()", ").int()"):
        for at in text_scan.positions(text, cast):
            start, _ = text_scan.line_span(text, at)
            if "/" in text[start:at]:
                return True
    return False


@file_test
def _writes_other_floats(text: str) -> bool:
    """`x[idx] = v` beside a float dtype other than the default (GL016: index_put_ converts no tensor value): a
    key item that is no slice (`x[..., :n] = v`, the writes of most model files, converts)."""
    if not any(word in text for word in _OTHER_FLOATS):
        return False
    for at in text_scan.positions(text, "] = "):
        key = text_scan.subscript_key(text, at)
        if key is not None and any(":" not in item and text_scan.may_hold_tensor(item) for item in key.split(",")):
            return True
    return False


_OTHER_FLOATS = ("float64", "double", "float16", "half", "bfloat16")


def _fills_by_subscript(chunk: str) -> bool:
    return _fresh_buffer(chunk) and "] = " in chunk


def _fresh_buffer(text: str) -> bool:
    """A buffer made to be filled: zeros or a constant fill (a range image's -1)."""
    return "zeros" in text or "full(" in text


def mentions_op(text: str) -> bool:
    """Whether a file (or block) can hold anything a rule looks at."""
    return names_an_op(text) or local_trigger(text) or index_values.spelled_in(text) or embedding_lookups.scripted(text) \
        or vocab_growth.spelled_in(text) or normalised_consumers.spelled_in(text) or _read_by_syntax(text) \
        or bool(head_columns.width_one_attributes(text)) \
        or _float_keys_in_script(text) or distribution_values.spelled_in(text) or head_columns.scripted(text) \
        or backward_grads.spelled_in(text) or table_slices.scripted(text) or token_losses.spelled_in(text) \
        or library_causal_lms.spelled_in(text) or table_mixtures.spelled_in(text) or padded_last_position.spelled_in(text) \
        or shared_end_positions.spelled_in(text) or mask_positions.spelled_in(text) or left_padding.spelled_in(text) \
        or index_copies.spelled_in(text) or dropped_dims.reduces_along(text)


@file_test
def _float_keys_in_script(text: str) -> bool:
    """x[a / b] (GL008) and x[idx] = v (GL003) on plain subscripts, looked for in scripts only: the text
    scan for a float-making assignment costs ~10% on a library the size of transformers, and parsing
    every block that writes by subscript more; a script's few blocks cost nothing."""
    return script_drivers.is_script(text) and _subscript_site(text)  # is_script first: memoised, asked of most files


def _subscript_site(chunk: str) -> bool:
    """A write by subscript, a row-number index (`x[torch.arange(B), idx]`), a name as a key (whose
    dtype a caller may make float) or a float-making key."""
    return "] = " in chunk or "arange(" in chunk or advanced_index_sites.keyed_by_name(chunk) \
        or advanced_index_sites.spelled_in(chunk) or any(maker in chunk for maker in _RANGE_MAKERS)


# calls whose values the range checks follow to a lookup (running counts, scaled fractions, nonzero's
# coordinates, an unfolded input's rows): a script that spells one may index a table with them
_RANGE_MAKERS = ("cumsum(", "rand(", "rand_like(", "linspace(", "nonzero(", "argwhere(", "unfold(")


# the local rules' text tests (see _narrowed): GL013's writes, GL011's padded lookups and one_hot sizes,
# GL013/GL020/GL021's buffers, one-hot picks and top-k filters, GL006's column keys, GL017's x[:, idx],
# GL008's int8/int16/uint8 subscript keys, GL035's topk counts
_LOCAL_PATTERNS = (
    (_augments_by_index, None), (_reads_what_it_writes, None), (_pads_a_lookup, None), (own_max_sizes.spelled_in, None),
    (fills_buffer, None), (one_hot_pick.spelled_in, None), (top_k_filter.spelled_in, None),
    (column_key_lookups.spelled_in, None), (advanced_indexing.spelled_in, advanced_indexing.spelled_anywhere),
    (advanced_index_sites.narrow_keys, None), (advanced_index_sites.row_numbers_key, None),
    (permutation_order.spelled_in, None), (_writes_other_floats, None), (op_counts.spelled_in, None))
# the syntax-only checks' patterns: their blocks are read whether or not they spell `torch`
_SYNTAX_PATTERNS = ((sign_blind_penalty.spelled_in, None), (rolled_labels.spelled_in, None),
                    (top_one_paths.spelled_in, None), (overwritten_tables.spelled_in, None),
                    (class_targets.spelled_in, None))  # F.one_hot / F.cross_entropy name no `torch`
# of those, the ones checked by a file-wide pass over the parsed blocks alone (class_targets is checked as it runs)
_PASS_PATTERNS = frozenset({sign_blind_penalty.spelled_in, rolled_labels.spelled_in, top_one_paths.spelled_in,
                            overwritten_tables.spelled_in})


# The file-wide passes, each with what its check_module reads: "tree" (the blocks kept), "whole" (every block,
# parsed on demand), "blocks" (the file's blocks); True where it reads the text too
_MODULE_PASSES = (
    (vocab_growth, "whole", False),  # the script, in order
    (rolled_labels, "tree", False),  # GL007: labels shifted by roll wrap
    (sign_blind_penalty, "tree", False),  # GL022: logits / penalty written back
    (top_one_paths, "tree", True),  # GL023: max(dim) beside topk(k, dim)
    (overwritten_tables, "tree", False),  # GL025: a table replaced by its lookup
    (ceil_floor_weights, "tree", True),  # GL026: floor/ceil weights both 0
    (padded_last_position, "blocks", True),  # GL024: h[:, -1] of a right-padded batch
    (shared_end_positions, "tree", True),  # GL024: two sequences read at the larger of their ends
    (mask_positions, "blocks", True),  # GL007: a mask token written at n, the output read at n - 1
    (autograd_backward, "tree", False),  # GL013: a backward that drops repeats
    (backward_grads, "whole", False),  # GL001: grad of another rank
    (token_shift, "tree", True),  # GL007 against the model call's ids
)


def lint_source(text: str, path: str = "<stdin>", select: Optional[Callable[[str], bool]] = None,
                noqa: bool = True, observe: Optional[Callable[..., None]] = None,
                check_syntax: bool = False) -> FileResult:
    """All findings in one file's text, sorted by position. Never raises on bad input.
    `observe(line, site, unknown)` is told of every call site checked, with {role: why its shape
    was unknown} (benchmarks/recall.py uses it to say what stopped the analysis at a missed bug).
    Only the blocks that can hold a site are parsed: `check_syntax` parses the whole file first, so that a
    syntax error anywhere in it is reported (GL000)."""
    with text_scan.reading(text):  # each whole-file text test runs once for this file
        return _lint_source(text, path, select, noqa, observe, check_syntax)


def _lint_source(text: str, path: str, select: Optional[Callable[[str], bool]], noqa: bool,
                 observe: Optional[Callable[..., None]], check_syntax: bool) -> FileResult:
    stats = Stats(files=1)
    if check_syntax:
        try:
            parse(text, path)
        except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
            return FileResult(path, [_parse_error(path, exc)], stats)
    if not mentions_op(text) or (noqa and file_is_exempt(text)):
        return FileResult(path, [], stats)
    try:
        tree = parse_relevant(text, path)
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        return FileResult(path, [_parse_error(path, exc)], stats)
    if all(isinstance(node, (ast.Import, ast.ImportFrom)) for node in tree.body) and not _reads_whole_file(text):
        return FileResult(path, [], stats)  # the file matched as a whole, but none of its blocks does
    stats.parsed = 1
    source = SourceFile(text)
    collected: List[Finding] = []

    def report(call: ast.Call, site: Site, violations: List[Violation], bound=None, where=None) -> None:
        stats.sites += 1
        inp, idx = site.input.shape is not None, site.index.shape is not None
        stats.input_shape_known += inp
        stats.index_shape_known += idx
        stats.both_known += inp and idx
        unknown = {}
        for role, known, key in (("input", inp, "input"), ("index", idx, site.op.index_param)):
            if not known and bound is not None:
                unknown[role] = blind_spot(bound[key], where.params if where else ())
                spot = f"{role}: {unknown[role]}"
                stats.blind_spots[spot] = stats.blind_spots.get(spot, 0) + 1
        if observe is not None:
            observe(call.lineno, site, unknown)
        line, col, end_line, end_col = _op_position(source, call)
        asked = {}  # code -> fix, of this run at this site
        for v in violations:
            if select is not None and not select(v.code):
                continue
            fix = _fix(source, v, bound[site.op.index_param], bound.get("dim"), call) if bound is not None else None
            if fix is not None and not names_bound(v, line):  # a size named where the fix cannot read it
                v = _sized_by_tensors(site, v)
                fix = _fix(source, v, bound[site.op.index_param], bound.get("dim"), call)
                fix = fix if fix is None or names_bound(v, line) else None
            asked[v.code] = fix
            shown = shown_source(source, line, (col, end_col if end_line == line else None),
                           _underlined(v, site, bound))
            collect(Finding(path, line, col, v.code, end_line, end_col, v.severity, v.message, fix,
                            help=v.help or fix_sentence(v.message), shapes=site_shapes(site), **shown), v.calls)
        if getattr(where, "facts_from_calls", ()):
            checked_with_facts.setdefault((line, col), []).append(asked)

    def flag(node, v: Violation, fix_node) -> None:
        if select is not None and not select(v.code):
            return
        if v.calls:  # flagged under a caller's facts: only a fix at the cause, in the caller's code
            v = replace(v, fix_suffix=None, fix_result_suffix=None, fix_argument=None)
        line, col = node.lineno, source.char_col(node.lineno, node.col_offset) + 1
        end_line = node.end_lineno or line
        end_col = source.char_col(end_line, node.end_col_offset or 0) + 1
        fix = _fix(source, v, fix_node, None, None, statement=node)
        fix = fix if fix is None or names_bound(v, line) else None
        collect(Finding(path, line, col, v.code, end_line, end_col, v.severity, v.message, fix,
                        help=v.help or fix_sentence(v.message),
                        **shown_source(source, line, (col, end_col if end_line == line else None), None)), v.calls)

    calls_of: Dict[int, tuple] = {}  # id(finding) -> the lines of the calls whose facts decided it
    checked_with_facts: Dict[tuple, list] = {}  # a site's position -> {code: fix} of each run with a caller's facts
    bound_names: list = []

    def collect(finding: Finding, calls: tuple) -> None:
        collected.append(finding)
        if calls:
            calls_of[id(finding)] = calls

    def names_bound(v: Violation, line: int) -> bool:
        """Whether every name the fix writes is bound where it goes (fix_names)."""
        written = fix_names.written_names(v)
        if not written:
            return True
        if not bound_names:
            bound_names.append(fix_names.BoundNames(tree, module_constants.constants(text), whole))
        return bound_names[0].all_bound(written, line)

    # the file's blocks, for checks that read more than parse_relevant kept (parsed once, on demand)
    blocks = getattr(tree, "file_blocks", None) or WholeFile(tree, text)
    whole = blocks.whole

    fault = scope_faults.ScopeFaults(path, source, collected)  # a function that fails is given up alone

    def analyse():
        module_names = {**module_constants.constants(text), **_imports(tree)}
        module = ModuleContext(tree, lambda rep, fl: Interpreter(source, module_names, rep, fl))

        def interpreter():
            interp = Interpreter(source, module_names, report, flag)
            interp.module = module
            return interp

        module.own = (report, flag)
        module.fault = fault
        body = interpreter()
        global_facts.capture(module, body, tree)  # what functions read from the module's names
        scope_faults.run_module_body(body, tree.body, fault)
        skipped = {id(top) for top in getattr(tree, "summary_only", ())}
        tops = [top for top in tree.body if id(top) not in skipped]
        holds_site = getattr(tree, "function_holds_site", None)
        functions = [node for top in tops for node in tree_walk.function_defs(top)] if holds_site is None \
            else own_analyses.chosen(tops, text, holds_site, _plain_calls, getattr(blocks, "lines", None))
        for node in functions:
            module.analyse(node)  # once: a call that brought no facts may have run it already
        reads = {"tree": lambda: tree, "whole": whole, "blocks": lambda: blocks}
        for module_pass, reading, with_text in _MODULE_PASSES:  # in this order: each runs where its text test holds
            if module_pass.spelled_in(text):
                args = (reads[reading](), text) if with_text else (reads[reading](),)
                for node, violation in module_pass.check_module(*args):
                    flag(node, violation, None)

    try:
        try:
            analyse()
        except RecursionError:
            collected.clear()
            on_big_stack(analyse)
    except RecursionError:
        collected.append(Finding(path, 1, 1, PARSE_ERROR, 1, 1, "error",
                                 "file is nested too deeply to analyse; it was skipped"))
    except Exception as exc:  # outside any one function (a file-wide check): what was found before it stands
        if not scope_faults.contained(exc):
            raise
        collected.append(scope_faults.file_finding(path, exc))
    cache: Dict[int, object] = {}
    at: Dict[tuple, List[Finding]] = {}  # the findings at each position and code (a helper checked from two calls)
    for f in collected:
        if not (noqa and suppressed(f.code, f.line, source.lines, cache)):
            at.setdefault((f.line, f.column, f.code), []).append(f)
    unique = sorted(caller_facts.one_finding(found, calls_of, checked_with_facts.get(key[:2], ()))
                    for key, found in at.items())
    return FileResult(path, _one_per_call(unique), stats)


def _one_per_call(findings: List[Finding]) -> List[Finding]:
    """One finding per call and code: two checks may each report one mistake of the same call, one at the
    call and one at its method's name (both end where the call ends); the first, the whole call's, stays."""
    kept, seen = [], set()
    for f in findings:  # sorted: the call's own column comes before its method name's
        key = (f.line, f.end_line, f.end_column, f.code)
        if key not in seen:
            seen.add(key)
            kept.append(f)
    return kept


_DEF_NAME = re.compile(r"(class|def|async def) (\w+)")  # what a block defines, matched at a line's start
_CONTINUED = frozenset(" \t)]}@")  # first characters of the lines that can come before a block's def
_NAME_BEFORE = re.compile(r"(\w+)[ \t]*$")
_NAME_AT = re.compile(r"[ \t]*(\w+)")


# searched in the reversed text, so the engine jumps from one `(` to the next instead of trying a
# word at every position: yields (name reversed, "." when it is called as an attribute)
_CALL_REVERSED = re.compile(r"\(\s*(\w+)(\.?)")
_IMPORT_AT = re.compile(r"[ \t]*(?:import|from)[ \t]")  # matched at a line's start
_IMPORT_STATEMENT = re.compile(r"import\s+[\w.]|from\s+\.*[\w.]*\s+import\s")
_UNBOUND_METHOD = re.compile(r"@(?:staticmethod|classmethod)[ \t]*\n(?:[ \t]*@.*\n)*[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)")
# `Ops.pick(` read in the reversed text, as _CALL_REVERSED is: (method reversed, class reversed). Forwards,
# `(?<![\w.])(\w+)\.(\w+)[ \t]*\(` starts with no literal, so the engine tried it at every position
_THROUGH_REVERSED = re.compile(r"\([ \t]*(\w++)\.(\w++)(?![\w.])")  # (`\w++`: a shorter name meets a \w, never `.`)
_COLLATE_FN = re.compile(r"collate_fn\s*=\s*(\w+)")
# self.loss = helper; `\w++` gives back nothing (no shorter name is followed by `=`): tried at every `self.`
_STORED_FUNCTION = re.compile(r"self\.\w++\s*=\s*([A-Za-z_]\w*)[ \t]*$", re.MULTILINE)
_CLASS_BASES = re.compile(r"[(,]\s*(\w+)\s*(?=[,)])")  # `class Focal(WeightedLoss, Mixin):` -> its bases


def _site_test(text: str) -> Callable[[str], bool]:
    """Whether a block (or one function) of `text` holds a site of its own: it names an op, makes
    out-of-range index values (its callers index with them), or spells what a file-wide pattern reads."""
    tables = embedding_lookups.scripted(text)  # a script building lookup tables: its ids come from its driver
    scored = distribution_values.spelled_in(text)  # `dist.log_prob(v)`: the distribution is often built elsewhere
    heads = head_columns.scripted(text)  # a script with a width-1 head: where its output is used names no op
    head_calls = head_columns.width_one_attributes(text) if not heads else frozenset()  # a library's: its callers
    sliced = table_slices.scripted(text)  # a script slicing a positional table to its input's length
    softmax_blocks = normalised_consumers.block_filter(text)  # a softmax and its reader are often in different blocks
    mixtures = table_mixtures.block_filter(text)  # a softmax helper's result mixing a table's rows
    named, valued = names_an_op(text), index_values.spelled_in(text)  # else no block does either
    copies = index_copies.spelled_in(text)  # `x[mask][k] = v`: a write into an advanced index's copy (GL031)
    # a reduction without keepdim (GL029): a helper's masked mean meets its caller's tensor, so callers count too
    reduced = dropped_dims.reduces_along(text)
    aliases = _op_aliases(text) if named else frozenset()  # `from torch import gather as g`: `g(...)` is a site

    def holds(chunk: str) -> bool:
        return heads or (named and names_an_op(chunk)) or (aliases and text_scan.has_call(chunk, aliases)) \
            or (head_calls and head_columns.calls_width_one(chunk, head_calls)) \
            or (valued and index_values.spelled_in(chunk)) or (tables and embedding_lookups.spelled_in(chunk)) \
            or (copies and index_copies.spelled_in(chunk)) or (reduced and dropped_dims.spelled_in(chunk)) \
            or (scored and "log_prob(" in chunk) \
            or (sliced and table_slices.spelled_in(chunk)) or (softmax_blocks is not None and softmax_blocks(chunk)) \
            or (mixtures is not None and mixtures(chunk))
    return holds


def parse_relevant(text: str, path: str) -> ast.Module:
    """A module holding only the top-level blocks that name an op, plus every import.

    Parsing is most of the cost and most blocks of a model file never touch the family, so
    only the blocks that mention an op are parsed, each at its own line numbers. A block split
    that does not parse (a `def` at column 0 inside a string) falls back to the whole file,
    so a file's verdict never depends on the split.
    """
    blocks = FileBlocks(text, path)
    if len(blocks) <= 2:
        module = parse(text, path)
        # one class (or a head and one class): its methods are chosen as a split file's functions are
        rounding = set(text_scan.DEFINED_FUNCTION.findall(text)) if fills_buffer(text) and _repeat_marks(text) else set()
        # the file is the one block: its imports say whether it uses torch
        module.function_holds_site = _function_site_test(_site_test(text), _local_test(text), rounding, "torch" in text)
        return module
    chunks = [(first, blocks.chunk(i)) for i, first in enumerate(blocks.starts)]
    holds = _site_test(text)
    keep = [holds(chunk) for _, chunk in chunks]
    if script_drivers.is_script(text) and not keep[0]:
        keep[0] = True  # a script's head binds the tensors and sizes its functions read (global_facts)
    analysed = list(keep)  # blocks whose own analysis can find something; the rest only serve calls
    if token_losses.spelled_in(text) or library_causal_lms.spelled_in(text):
        # a per-token loss, or a library causal LM given labels, pairs positions for GL007's module pass
        keep = [kept or token_losses.spelled_in(chunk) or library_causal_lms.spelled_in(chunk)
                for kept, (_, chunk) in zip(keep, chunks)]
    if shared_end_positions.spelled_in(text):  # a row-wise pick at the shared end names no op
        keep = [kept or shared_end_positions.spelled_in(chunk) for kept, (_, chunk) in zip(keep, chunks)]
    found = [_defined(chunk) for _, chunk in chunks]
    defined = [{name for _, name in pairs} for pairs in found]
    functions = [{name for kind, name in pairs if kind != "class"} for pairs in found]
    classes = [d - f for d, f in zip(defined, functions)]
    # each block's called names, read once: the loop below is set algebra, not a regex per round
    any_calls, plain_calls = zip(*(_called_names(chunk) for _, chunk in chunks))
    if "@staticmethod" in text or "@classmethod" in text:  # `Ops.pick(x)` calls a class's method as a function
        functions = [f | set(_UNBOUND_METHOD.findall(chunk)) if c else f
                     for f, c, (_, chunk) in zip(functions, classes, chunks)]
        file_classes = set().union(*classes)
        through = [_called_through(chunk, file_classes) for _, chunk in chunks]
        plain_calls = tuple(c | t for c, t in zip(plain_calls, through))
    if "collate_fn" in text:  # DataLoader(..., collate_fn=fn) calls fn on every batch (shifted_batches)
        passed = [set(_COLLATE_FN.findall(chunk)) for _, chunk in chunks]
        any_calls = tuple(c | p for c, p in zip(any_calls, passed))
        plain_calls = tuple(c | p for c, p in zip(plain_calls, passed))
    # `self.loss_function = causal_lm_loss`: the class calls the function through the attribute (helper_aliases)
    stored = [set(_STORED_FUNCTION.findall(chunk)) if chunk.startswith("class ") else set() for _, chunk in chunks]
    if any(stored):
        any_calls = tuple(c | p for c, p in zip(any_calls, stored))
        plain_calls = tuple(c | p for c, p in zip(plain_calls, stored))
    # a block writing a zeros buffer by subscript at positions a helper rounds (`u, v = project(points)`)
    rounding = set().union(*(f for f, (_, chunk) in zip(defined, chunks) if _repeat_marks(chunk))) \
        if fills_buffer(text) else set()
    fills = [fills_buffer(chunk) or (bool(rounding & called) and _fills_by_subscript(chunk))
             for (_, chunk), called in zip(chunks, any_calls)]
    local_site = _local_test(text)
    aliases = torch_aliases.of(text)  # `import torch as T`: a block spelling `T.` uses torch
    local = [not own and local_site(chunk, torch_aliases.spelled_in(chunk, aliases), fill)
             for (_, chunk), own, fill in zip(chunks, analysed, fills)]
    # a filled buffer's positions are often made by a helper (`cells = to_cells(points)`): parse it
    helpers = set().union(*(called for called, lone, fill in zip(plain_calls, local, fills) if lone and fill))
    if helpers:
        keep = [kept or bool(f & helpers) for kept, f in zip(keep, functions)]
    # a script's driver and the classes it builds (and they build) get their classes' layers; in a
    # library every model block builds layers from a config: parsing them all would cost too much
    # (statements a script runs at module level without the guard are its driver as well: they end the
    # block of the def before them)
    file_defines = set().union(*defined)
    scripted = [script_drivers.holds_driver(chunk, file_defines) for _, chunk in chunks]
    # a NamedTuple class a kept block calls: the tuple it makes carries tensors (named_tuples)
    records = [c if "NamedTuple" in chunk[:chunk.find(":")] else set() for c, (_, chunk) in zip(classes, chunks)]
    for _ in range(MAX_DEPTH):  # callers carry shapes into kept functions; callees carry results back
        names = set().union(*(f for f, kept in zip(functions, keep) if kept))
        called = set().union(*(c for c, kept in zip(plain_calls, keep) if kept))
        built = set().union(*(c for c, s in zip(plain_calls, scripted) if s))
        builds = set().union(names, *(c for c, kept in zip(classes, keep) if kept)) if any(scripted) else set()
        analysed = [own or not (calls.isdisjoint(builds if driver else names))
                    for calls, own, driver in zip(any_calls, analysed, scripted)]
        # the script's own functions that its driver calls build its models too (`train()` making the model)
        scripted = [s or bool((c | f) & built) for s, c, f in zip(scripted, classes, functions)]
        keep = [kept or own or bool((f | r) & called) or bool((c | f) & built)
                for kept, own, c, f, r in zip(keep, analysed, classes, functions, records)]
    # blocks for the local rules need no callers, and only those that use torch; the helpers they call are
    # parsed for their results (`order = make_table()[i]`; `x[order]`), which makes no caller of theirs analysed
    helped = set().union(*(c for c, lone in zip(plain_calls, local) if lone))
    keep = [kept or bool(f & helped) for kept, f in zip(keep, functions)]
    analysed = [own or lone for own, lone in zip(analysed, local)]
    body: list = []
    summary_only: list = []
    try:
        for i, (kept, own) in enumerate(zip(keep, analysed)):
            if kept or own:
                body.extend(blocks.body(i))
                if not own:
                    summary_only.extend(blocks.body(i))
    except SyntaxError:
        return parse(text, path)
    module = ast.Module(body=_imports_of(text, path) + body, type_ignores=[])
    module.summary_only = summary_only  # callees (functions, classes) no op names: no analysis of their own
    module.file_blocks = blocks  # the other blocks, parsed when a check asks for them
    blocks.kept = module

    module.function_holds_site = _function_site_test(holds, local_site, rounding,  # read by own_analyses.py
                                                     aliases=aliases)
    return module


def _defined(chunk: str) -> list:
    """[(kind, name)] of the def or class a block defines (none for the statements between them): a line at
    column 0 starting with one, reached past decorators, continued lines and blank lines. Any later one
    would start a block of its own (file_blocks.block_starts), so the block's first lines are all it reads."""
    at = 0
    while at < len(chunk):
        match = _DEF_NAME.match(chunk, at)
        if match is not None:
            return [match.groups()]
        end = chunk.find("\n", at)
        end = len(chunk) if end == -1 else end
        if chunk[at:at + 1] not in _CONTINUED and chunk[at:end].strip():
            return []
        at = end + 1
    return []


def _op_aliases(text: str) -> frozenset:
    """Names an op is imported under (`from torch import gather as g`)."""
    found = set()
    for at in text_scan.positions(text, " as "):  # from one ` as ` to the next: a regex would try every word
        name = _NAME_BEFORE.search(text, max(0, at - 40), at)
        if name is not None and name.group(1) in OP_NAMES:
            alias = _NAME_AT.match(text, at + 4)
            if alias is not None:
                found.add(alias.group(1))
    return frozenset(found)


def _function_site_test(holds: Callable[[str], bool], local_site, rounding: set,
                        file_uses_torch: Optional[bool] = None, aliases=frozenset()) -> Callable[[str, str], bool]:
    """Whether one function (in its top-level block) holds a site: the blocks' test, on its own lines.
    `rounding`: the file's functions that make positions which can repeat (a filled buffer's writers).
    `file_uses_torch`: for a file read as one block, whether it spells torch (else each block is asked)."""
    def function_holds_site(function: str, block: str) -> bool:
        fill = fills_buffer(function) or (bool(rounding) and bool(rounding & _called_names(function)[0])
                                          and _fills_by_subscript(function))
        uses_torch = torch_aliases.spelled_in(block, aliases) if file_uses_torch is None else file_uses_torch
        return holds(function) or local_site(function, uses_torch, fill, own_analysis=True)
    return function_holds_site


def _plain_calls(text: str) -> set:
    """The names a function calls as `f(...)`, and the functions it hands a DataLoader to call."""
    called = _called_names(text)[1]
    return called | set(_COLLATE_FN.findall(text)) if "collate_fn" in text else called


def _local_test(text: str) -> Callable[[str, bool, bool], bool]:
    """local_site(chunk, uses_torch, fills): whether a part of `text` holds a site of the local rules (they
    need no callers or callees): only in parts that use torch, but the syntax-only checks' and F.one_hot's.
    A part runs only the tests the whole text passed (most files pass one or two of them)."""
    # positions cast to uint8 anywhere in the file: every part keyed by a name, as the uint8 table may be made
    # in one class and indexed in another that names no torch; a permutation used twice as a key (GL027)
    anywhere = _narrowed(_SYNTAX_PATTERNS + ((own_max_sizes.spelled_in, None), (permutation_order.spelled_in, None),
                                             (advanced_index_sites.keyed_by_name, advanced_index_sites.narrow_positions)), text)
    triggers = tuple(test for test in _narrowed(_LOCAL_PATTERNS, text) if test not in anywhere)  # each run once
    subscripts = script_drivers.is_script(text) and _subscript_site(text)  # scripts only (see _float_keys_in_script)
    # the file-wide passes' patterns keep a block parsed; its functions need no analysis of their own for them
    analysed = tuple(test for test in anywhere if test not in _PASS_PATTERNS)

    def local_site(chunk: str, uses_torch: bool, fills: bool, own_analysis: bool = False) -> bool:
        return (uses_torch and (fills or any(test(chunk) for test in triggers) or (subscripts and _subscript_site(chunk)))) \
            or any(test(chunk) for test in (analysed if own_analysis else anywhere))
    return local_site


def _called_names(text: str):
    """(names called as f(...) or obj.f(...), names called as plain f(...)). A class's bases count as
    called by it: a subclass instance runs its parent's __init__ and methods (class_lineage.py)."""
    found = _CALL_REVERSED.findall(text[::-1])
    bases = set(_CLASS_BASES.findall(text[:text.find(":") + 1])) if text.startswith("class ") else set()
    return {name[::-1] for name, _ in found} | bases, {name[::-1] for name, dot in found if not dot} | bases


def _called_through(text: str, classes: set) -> set:
    """The methods `text` calls through one of `classes` by name (`Ops.pick(x)`)."""
    if not classes:
        return set()
    return {method[::-1] for method, owner in _THROUGH_REVERSED.findall(text[::-1]) if owner[::-1] in classes}


def _imports_of(text: str, path: str) -> list:
    """Every import statement in the file, at any depth, as top-level nodes (for alias resolution)."""
    statements, seen = [], set()
    for at in text_scan.positions(text, "import"):  # every import statement's first line says `import`
        start = end = text.rfind("\n", 0, at) + 1
        if start in seen or not _IMPORT_AT.match(text, start):
            continue
        seen.add(start)
        depth = 0
        while True:
            line_end = text.find("\n", end)
            line_end = len(text) if line_end == -1 else line_end
            line = text[end:line_end]
            depth += line.count("(") - line.count(")")
            end = line_end + 1
            if (depth <= 0 and not line.rstrip().endswith("\\")) or end >= len(text):
                break
        statement = text[start:end].strip()
        if _IMPORT_STATEMENT.match(statement):  # not prose in a docstring ("from the logits ...")
            statements.append(statement)
    try:  # one parse for all of them; each is a top-level statement at line 1, as parsed alone
        nodes = ast.parse("\n".join(statements), path).body
        for node in nodes:  # the statement's own lines only: nothing reads its names' positions
            node.end_lineno, node.lineno = 1 + node.end_lineno - node.lineno, 1
    except SyntaxError:  # an import-looking line inside a string: each statement alone
        nodes = []
        for statement in statements:
            try:
                nodes.extend(ast.parse(statement, path).body)
            except SyntaxError:
                continue
    return [node for node in nodes if isinstance(node, (ast.Import, ast.ImportFrom))]


def _imports(tree: ast.Module) -> Dict[str, object]:
    """Names bound by imports anywhere at module level (also under `try:` and `if TYPE_CHECKING:`)."""
    collector = Interpreter(SourceFile(""), {}, lambda *a: None)
    # parse_relevant lifts every import of the file, at any depth, to the top of the module it builds
    lifted = hasattr(tree, "summary_only")
    for node in tree.body if lifted else tree_walk.statements(tree):  # an import is always a statement
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            collector.stmt(node)
    return {k: v for k, v in collector.env.items() if v is not None}


def blind_spot(node, params) -> str:
    """Why an argument's shape was unknown, named by the argument's form."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PASS_THROUGH:
        node = node.func.value  # idx.unsqueeze(-1).expand(...) is as unknown as idx
    if isinstance(node, ast.Name):
        return "parameter without a shape" if node.id in params else "local from an untracked expression"
    if isinstance(node, ast.Attribute):
        return "attribute (self.x, obj.weight)"
    if isinstance(node, ast.Subscript):
        return "indexing of an unknown tensor"
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute):
            return f"result of .{func.attr}()"
        return "result of a function or module call"
    return "other expression"


_PASS_THROUGH = {"unsqueeze", "squeeze", "expand", "expand_as", "view", "reshape", "long", "to", "contiguous",
                 "clone", "detach", "flatten", "int", "float", "repeat", "permute", "transpose"}


_ATOMS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)


def _fix(source: SourceFile, v: Violation, index, dim, call, statement=None):
    """The violation's fix as Edits (node spans and the codemod kind for each); None when there is
    none or it would not be valid code. gather_lint.codemods applies them."""
    edits = []
    if v.fix_suffix:
        if "..." in v.fix_suffix or getattr(index, "end_lineno", None) is None:
            return None
        kind = "append" if isinstance(index, _ATOMS) else "wrap_append"
        edits.append(Edit(*_start(source, index), *_end(source, index), v.fix_suffix, kind))
    if v.fix_dim is not None:
        if not _is_int_literal(dim):
            return None
        edits.append(Edit(*_start(source, dim), *_end(source, dim), str(v.fix_dim), "replace"))
    if v.fix_result_suffix or v.fix_keyword:
        if call is None:
            return None
        if v.fix_result_suffix:
            edits.append(Edit(*_start(source, call), *_end(source, call), v.fix_result_suffix, "append"))
        if v.fix_keyword:
            edits.append(Edit(*_start(source, call), *_end(source, call), v.fix_keyword, "keyword"))
    if v.fix_cause:
        kind, span = v.fix_cause
        edits = [Edit(*span, "", kind)]  # the cause is the whole fix: the call then gets an integer index
    if v.fix_statement or v.fix_argument or v.fix_rename:
        if statement is None:
            return None
        if v.fix_rename:
            edits.append(Edit(*_start(source, statement), *_end(source, statement), v.fix_rename, "rename_keyword"))
        if v.fix_statement:
            edits.append(Edit(*_start(source, statement), *_end(source, statement), "", v.fix_statement))
        if v.fix_argument:
            edits.append(Edit(*_start(source, statement), *_end(source, statement), v.fix_argument, "argument"))
    return tuple(edits) or None


def _start(source: SourceFile, node):
    return (node.lineno, source.char_col(node.lineno, node.col_offset) + 1)


def _end(source: SourceFile, node):
    return (node.end_lineno, source.char_col(node.end_lineno, node.end_col_offset) + 1)


def _is_int_literal(node) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool)


def _sized_by_tensors(site: Site, v: Violation) -> Violation:
    """The finding checked again with its sizes written as the tensors' own (`self.centers.size(1)`), for a
    fix whose size a name gave (`feat_dim` from `__init__`'s parameter) that the function does not bind."""
    with sizes_by_name():
        again = next((w for w in check(site) if w.code == v.code), None)
    if again is None or again.message == v.message:
        return replace(v, fix_suffix=None, fix_result_suffix=None, fix_argument=None)
    return replace(again, calls=v.calls)


def _underlined(v: Violation, site: Site, bound):
    """The argument a finding underlines: the index, or the one its rule names (GL016's src)."""
    if bound is None:
        return None
    return bound.get(v.shown) if v.shown in bound else bound[site.op.index_param]


def _op_position(source: SourceFile, call: ast.Call):
    """Point at the op's name (`gather` in `x.gather(...)`), end at the call's closing paren."""
    func = call.func
    line, col = call.lineno, call.col_offset
    if isinstance(func, ast.Attribute) and func.end_lineno is not None:
        line = func.end_lineno
        col = func.end_col_offset - len(func.attr.encode("utf-8"))
    elif isinstance(func, ast.Name):
        line, col = func.lineno, func.col_offset
    end_line = call.end_lineno or line
    end_col = call.end_col_offset or col
    return (line, source.char_col(line, col) + 1, end_line, source.char_col(end_line, end_col) + 1)


def _parse_error(path: str, exc: Exception) -> Finding:
    line = getattr(exc, "lineno", None) or 1
    col = getattr(exc, "offset", None) or 1
    reason = getattr(exc, "msg", None) or str(exc) or type(exc).__name__
    return Finding(path, line, max(col, 1), PARSE_ERROR, line, max(col, 1), "error",
                   f"cannot parse this file as Python ({reason}); it was not checked")


def explain_shapes(text: str, path: str, line: Optional[int] = None, faults: Optional[List[Finding]] = None) -> List[tuple]:
    """[(function name, first line, [(line, variable, TensorVal)])] for `gather-lint shapes`. With `faults`, a
    function whose analysis fails is given up alone and its GL000 put there (its facts up to the fault are
    still listed); without, the fault is raised."""
    tree = parse(text, path)
    source = SourceFile(text)
    module_names = _imports(tree)
    module = ModuleContext(tree, lambda rep, fl: Interpreter(source, module_names, rep, fl))
    fault = scope_faults.ScopeFaults(path, source, faults) if faults is not None else None
    module.fault = fault
    scopes = [("<module>", 1, None)] + [(n.name, n.lineno, n) for n in ast.walk(tree) if isinstance(n, _SCOPES)]
    out = []
    for name, first, node in scopes:
        if line is not None and node is not None and not node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        if line is not None and node is None:
            continue
        interp = Interpreter(source, module_names, lambda *a: None)
        interp.module = module
        interp.trace = []
        body = [s for s in tree.body if not isinstance(s, (*_SCOPES, ast.ClassDef))]
        try:
            if node is None and fault is not None:
                scope_faults.run_module_body(interp, body, fault)
            elif node is None:
                interp.block(body)
            else:
                interp.run_function(node)
        except Exception as exc:
            if fault is None or not scope_faults.contained(exc):
                raise
            fault(node, exc)
        if interp.trace:
            out.append((name, first, interp.trace))
    return out
