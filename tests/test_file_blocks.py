"""A file's top-level blocks parsed on demand (file_blocks.py): the same trees as parsing the file at once,
each block parsed once, and the syntax-only checks that ask only for the blocks their patterns span."""
import ast

from gather_lint.static import padded_last_position
from gather_lint.static.analyzer import lint_source
from gather_lint.static.file_blocks import FileBlocks

SOURCE = '''import torch


def first(x):
    return x + 1


@torch.no_grad()
def second(x):
    """Docs."""
    return x * 2


class Third:
    def go(self, x):
        return first(x)
'''


def _dump(tree) -> str:
    return ast.dump(tree, include_attributes=True)


def test_the_whole_file_from_its_blocks_is_the_file_parsed_at_once():
    blocks = FileBlocks(SOURCE, "m.py")
    assert len(blocks) == 4  # the head, two functions (the decorator with its def), a class
    assert _dump(blocks.whole()) == _dump(ast.parse(SOURCE))


def test_spanning_reads_only_the_blocks_holding_the_lines_and_reuses_them():
    blocks = FileBlocks(SOURCE, "m.py")
    part = blocks.spanning([10, 16])  # inside `second` and inside `Third`
    assert [getattr(node, "name", None) for node in part.body] == ["second", "Third"]
    assert part.body[0] is blocks.whole().body[2]  # parsed once, the same node for every reader


def test_a_def_inside_a_string_at_column_zero_falls_back_to_the_whole_file():
    text = 'DOC = """\ndef not_code(:\n"""\n\n\ndef real(x):\n    return x\n'
    blocks = FileBlocks(text, "m.py")
    assert len(blocks) == 3  # the split is wrong: its middle block does not parse alone
    assert _dump(blocks.whole()) == _dump(ast.parse(text))


def test_a_broken_block_no_check_needed_leaves_the_kept_tree():
    text = "import torch\n\n\ndef good(x):\n    return x.gather(1, x)\n\n\ndef broken(:\n    pass\n"
    blocks = FileBlocks(text, "m.py")
    kept = ast.Module(body=blocks.body(1), type_ignores=[])  # held by its caller, as lint_source holds it
    blocks.kept = kept
    assert blocks.whole() is kept


def test_a_linted_file_leaves_no_cycle_for_the_collector():
    """The tree holds its blocks and the module context the body's interpreter, which holds the context:
    held strongly both ways, every parsed file (its whole tree) would wait for the cycle collector."""
    import gc
    import os
    from gather_lint.api import lint_text
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    examples = os.path.join(root, "examples", "buggy")
    texts = [open(os.path.join(examples, n), encoding="utf-8").read() for n in sorted(os.listdir(examples)) if n.endswith(".py")]
    found = [lint_text(t, "x.py").findings for t in texts]
    assert any(found)  # the files were analysed, not skipped
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for t in texts:
            lint_text(t, "x.py")
        gc.collect()
        trees = [o for o in gc.garbage if isinstance(o, ast.AST)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert trees == []


class _Counting(FileBlocks):
    def __init__(self, text):
        super().__init__(text, "m.py")
        self.parsed = []

    def body(self, i):
        if i not in self._bodies:
            self.parsed.append(i)
        return super().body(i)


PADDED = '''import torch
from torch.nn.utils.rnn import pad_sequence


def batch(seqs):
    return pad_sequence(seqs, batch_first=True)


def last_state(model, ids):
    h = model(ids)
    return h[:, -1, :]
'''


def test_reads_and_padding_that_cannot_meet_parse_nothing():
    blocks = _Counting(PADDED)
    assert padded_last_position.spelled_in(PADDED)
    assert list(padded_last_position.check_module(blocks, PADDED)) == [] and blocks.parsed == []


def test_a_reading_block_that_calls_the_padder_is_read():
    text = PADDED.replace("h = model(ids)", "ids = batch(ids)\n    h = model(ids)")
    blocks = _Counting(text)
    found = list(padded_last_position.check_module(blocks, text))
    assert len(found) == 1 and found[0][0].lineno == 12 and sorted(blocks.parsed) == [1, 2]
    assert [f.line for f in lint_source(text, "m.py").findings if f.code == "GL024"] == [12]
