"""The prefilters' literal-needle scans give the answers of the regexes they stand for."""
import re

import pytest

from gather_lint.ops import OP_NAMES
from gather_lint.static import analyzer, script_drivers, text_scan, token_shift

_OP_WORD = re.compile(r"\b(?:%s)\b" % "|".join(sorted(OP_NAMES, key=len, reverse=True)))
_GATHERING_CALL = re.compile(r"\b(?:%s)\s*\(" % "|".join(sorted(token_shift._GATHERING)))
_PADDING = re.compile(r"-100\b|value\s*=\s*-1\b")

TEXTS = [
    "", "gather", "x.gather(1, i)", "gathered = 1", "_gather(x)", "my_gather = 2", "scatter_", "scatter_add_x",
    "torch.scatter_add(a)", "index_select", "index_selected", "take_along_dim", "ätake_along_dim", "1gather",
    "gather (x)", "gather\n(x)", "gather\t\t(", "take_along_dim(x, i, 1)", "gatherx(", "a.gather", "gather_(",
    "labels[m] = -100", "ignore = -1000", "-100_", "(-100)", "pad(value=-1)", "value = -1,", "value= -12",
    "value\n=\n-1", "values=-1", "foo_value=-1", "-100", "x = -100\ny", "éindex_add", "index_add_é",
]


@pytest.mark.parametrize("text", TEXTS)
def test_op_word_matches_the_regex(text):
    assert analyzer.names_an_op(text) == (_OP_WORD.search(text) is not None)


@pytest.mark.parametrize("text", TEXTS)
def test_gathering_call_matches_the_regex(text):
    assert token_shift.spelled_in(text) == (_GATHERING_CALL.search(text) is not None)


@pytest.mark.parametrize("text", TEXTS)
def test_padding_matches_the_regex(text):
    assert analyzer._padding(text) == (_PADDING.search(text) is not None)


def test_positions_finds_overlapping_hits():
    assert list(text_scan.positions("aaaa", "aa")) == [0, 1, 2]
    assert list(text_scan.positions("abc", "x")) == []


def test_any_match_tries_every_hit():
    pattern = re.compile(r"x\s*=\s*1\b")
    assert text_scan.any_match("x = 2; x = 1", "x", pattern)
    assert not text_scan.any_match("x = 2; x = 12", "x", pattern)


@pytest.mark.parametrize("text", TEXTS)
def test_call_lines_are_the_regex_hits_lines(text):
    want = sorted(text.count("\n", 0, m.start()) + 1 for m in _GATHERING_CALL.finditer(text))
    assert text_scan.call_lines(text, token_shift._GATHERING) == want


def test_call_lines_hold_every_gathering_call_node():
    """The module pass runs a function when a gathering call starts on one of its lines: every call
    node's line holding the called name must be among them, a call split over lines included."""
    import ast
    text = "def f(x, i):\n    y = (x\n         .gather(-1, i))\n    return torch.take_along_dim(\n        y, i, 1)\n"
    lines = text_scan.call_lines(text, token_shift._GATHERING)
    calls = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call)]
    assert lines == [3, 4]
    assert all(any(n.lineno <= line <= n.end_lineno for line in lines) for n in calls)


@pytest.mark.parametrize("line, key", [
    ("x[i] += 1", "i"), ("y = a[:, b[0]] -= 2", ":, b[0]"), ('d["ids"] = 1', '"ids"'), ("f(x)[idx.long()]", "idx.long()")])
def test_subscript_key_reads_back_to_the_matching_bracket(line, key):
    assert text_scan.subscript_key(line, line.rfind("]")) == key


def test_subscript_key_stops_at_the_line_start():
    text = "x[\n    i] += 1"
    assert text_scan.subscript_key(text, text.rfind("]")) is None


# keys that are only numbers, slices, None or strings write each position once: GL013 has nothing to find
LITERAL_KEYS = ["0", ":, 0", "..., 1:", "None, :2", ":, -1"]


@pytest.mark.parametrize("key", LITERAL_KEYS)
def test_literal_keys_cannot_hold_an_index_tensor(key):
    import torch
    assert not text_scan.may_hold_tensor(key)
    x = torch.zeros(3, 4)
    exec(f"x[{key}] += 1", {"x": x})
    assert set(x.unique().tolist()) <= {0.0, 1.0}  # no position was written twice


@pytest.mark.parametrize("key, any_key, lone_key", [
    ("ids", True, True), ("[0, 0]", True, True), (":, ids", True, False), ("rows, cols", True, False),
    ('"labels"', False, False), ("idx.long()", True, True)])
def test_keys_that_can_hold_an_index_tensor(key, any_key, lone_key):
    assert text_scan.may_hold_tensor(key) is any_key
    assert text_scan.may_hold_tensor(key, tuples=False) is lone_key


def test_local_trigger_skips_writes_by_literal_keys():
    assert not analyzer.local_trigger("def f(x):\n    x[:, 0] += 1\n    x[0] = x[0] * 2\n    return x\n")
    assert analyzer.local_trigger("def f(x, ids):\n    x[ids] += 1\n    return x\n")
    assert analyzer.local_trigger("def f(x, ids):\n    x[ids] = x[ids] + 1\n    return x\n")


CLASS_BLOCK = '''class Tagger(nn.Module):
    size = 4

    def __init__(self):
        self.emb = nn.Embedding(10, 4)

    @torch.no_grad()
    @staticmethod
    def forward(self, labels):
        def inner():
            return 1
        return labels.masked_fill(labels == 0, -100)
'''


def test_parts_are_a_class_blocks_members_with_their_decorators():
    parts = text_scan.parts(CLASS_BLOCK)
    assert "".join(parts) == CLASS_BLOCK
    assert [p.strip().splitlines()[0] for p in parts] == [
        "class Tagger(nn.Module):", "def __init__(self):", "@torch.no_grad()"]
    assert "def inner" in parts[2]  # a nested def stays in its method
    assert text_scan.parts("def f(x):\n    return x\n") == ["def f(x):\n    return x\n"]


def test_a_padding_literal_and_an_embedding_count_only_in_one_member():
    assert not analyzer._pads_a_lookup(CLASS_BLOCK)  # __init__ builds the table, forward pads no lookup
    assert analyzer._pads_a_lookup(CLASS_BLOCK.replace("return labels", "return self.emb(labels); nn.Embedding"))


def _project_sources():
    import glob
    import os
    from tests.bug_sets import PROJECT
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = sorted(glob.glob(os.path.join(root, "examples", "*", "*.py")) + glob.glob(os.path.join(PROJECT, "cases", "*", "*.py")))
    return [open(p, encoding="utf-8").read() for p in paths]


def test_narrowed_local_tests_answer_as_every_test_does_on_every_block_and_function():
    """The local tests a file's text failed are not run on its blocks: the answers must not change."""
    from gather_lint.static import advanced_index_sites, own_max_sizes, permutation_order
    from gather_lint.static.file_blocks import FileBlocks
    checked = 0
    for text in _project_sources():
        local_site = analyzer._local_test(text)
        script = script_drivers.is_script(text)  # a `__main__` driver, or one at module level
        narrow_file = advanced_index_sites.narrow_positions(text)
        blocks = FileBlocks(text, "<case>")
        parts = [blocks.chunk(i) for i in range(len(blocks))]
        parts += [m.group(0) for m in re.finditer(r"(?m)^[ \t]*def .*(?:\n(?:[ \t].*|))*", text)]
        for part in parts:
            for uses_torch in (True, False):
                every = (uses_torch and (analyzer.local_trigger(part) or (script and analyzer._subscript_site(part)))) \
                    or analyzer._read_by_syntax(part) or own_max_sizes.spelled_in(part) \
                    or (narrow_file and advanced_index_sites.keyed_by_name(part)) \
                    or permutation_order.spelled_in(part)  # a uint8 table made elsewhere; x[perm][perm]
                assert local_site(part, uses_torch, False) == every, part[:80]
                checked += every
    assert checked > 50  # the sources do hold local sites


def test_any_between_asks_whether_sorted_lines_fall_in_a_span():
    lines = [3, 7, 12]
    assert text_scan.any_between(lines, 1, 3) and text_scan.any_between(lines, 7, 7) and text_scan.any_between(lines, 8, 20)
    assert not text_scan.any_between(lines, 4, 6) and not text_scan.any_between(lines, 13, 99)
    assert not text_scan.any_between([], 1, 10)


def test_file_test_answers_once_for_the_file_being_read_and_runs_on_parts():
    asked = []

    @text_scan.file_test
    def test(text, flag=False):
        asked.append((text, flag))
        return len(text) + flag

    whole = "x = torch.gather(a, 1, i)\n" * 3
    part = whole[:10]
    assert test(whole) == len(whole) and test(whole) == len(whole)
    assert len(asked) == 2  # outside a file's reading nothing is kept
    asked.clear()
    with text_scan.reading(whole):
        assert [test(whole), test(whole), test(whole, True), test(whole, True)] == [len(whole)] * 2 + [len(whole) + 1] * 2
        assert test(part) == len(part) and test(part) == len(part)
        with text_scan.reading(part):  # a file read inside another's reading (a nested lint)
            assert test(part) == len(part) and test(part) == len(part)
        assert test(whole) == len(whole)  # the outer file's answers are back
    assert asked == [(whole, False), (whole, True), (part, False), (part, False), (part, False)]
    assert test(whole) == len(whole) and len(asked) == 6  # after the reading, nothing kept


def test_a_block_s_definition_is_read_from_its_first_lines_as_a_search_of_the_whole_block_finds_it():
    import glob
    import os

    from gather_lint.static.file_blocks import FileBlocks

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    anywhere = re.compile(r"^(class|def|async def) (\w+)", re.MULTILINE)
    paths = sorted(glob.glob(os.path.join(root, "examples", "**", "*.py"), recursive=True)
                   + glob.glob(os.path.join(root, "benchmarks", "bugs", "**", "*.py"), recursive=True)
                   + glob.glob(os.path.join(root, "gather_lint", "**", "*.py"), recursive=True))
    blocks = 0
    for path in paths:
        text = open(path, encoding="utf-8").read()
        file_blocks = FileBlocks(text, path)
        for i in range(len(file_blocks)):
            chunk = file_blocks.chunk(i)
            assert analyzer._defined(chunk) == anywhere.findall(chunk), (path, chunk[:200])
            blocks += 1
    assert blocks > 3000
    tricky = "@decorate(\n    x=1)\n\n# a comment\ndef f():\n    pass\n"  # a comment line ends the decorators' run
    assert anywhere.findall(tricky) == [("def", "f")] and analyzer._defined(tricky) == []


_PAD_AT_END = re.compile(r"\bpad\(\s*[\w.]+\s*,\s*[(\[]\s*0\s*,|cat\(\s*[\[(]\s*\w+\s*,\s*(?:\w*pad\w*\s*[\])]|[\w.]*(?:full|zeros|ones)\()")
PADDINGS = ["F.pad(s, (0, n))", "pad(s,[0, n])", "F.pad(x.y, ( 0 ,", "xpad(s, (0, n))", "_pad(s, (0, 1))", "pad(s, (1, 0))",
            "torch.cat([s, pad])", "cat((s, padding))", "cat([s, s.new_zeros(n)])", "cat([s, torch.full((n,), 0)])",
            "concat([s, pad])", "cat([s, t])", "cat([s,\n pad_row])", "pad(", "cat(", ""]


@pytest.mark.parametrize("text", PADDINGS + TEXTS)
def test_pads_at_end_matches_the_regex(text):
    from gather_lint.static import padded_last_position
    assert padded_last_position._pads_at_end(text) == (_PAD_AT_END.search(text) is not None)
