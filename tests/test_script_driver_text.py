"""script_drivers.is_script reads the text before any parse: a column-0 line of prose inside a docstring that
names one of the file's classes followed by `(` is no statement, and the parsed form (runs_as_script) agrees."""
import ast

import pytest

from gather_lint.static import script_drivers

PROSE = '''"""
Base classes common to both tokenizers: PreTrainedTokenizerBase (host all the user
fronting encoding methods).
"""


class PreTrainedTokenizerBase:
    pass
'''

STATEMENT_AFTER_DOCSTRING = '''"""A small script."""


class QNet:
    pass


model = QNet()
'''

QUOTES_ELSEWHERE = [
    # a triple quote inside a one-line string or a comment opens no docstring
    "x = '\"\"\"'\n\nclass QNet:\n    pass\n\nmodel = QNet()\n",
    "# '''\n\nclass QNet:\n    pass\n\nmodel = QNet()\n",
]

IN_A_STRING = 's = """\nmodel = QNet()\n"""\n\n\nclass QNet:\n    pass\n'


@pytest.mark.parametrize("text, expected", [
    (PROSE, False), (STATEMENT_AFTER_DOCSTRING, True), (IN_A_STRING, False),
    *[(text, True) for text in QUOTES_ELSEWHERE]])
def test_is_script_reads_statements_not_strings(text, expected):
    assert script_drivers.is_script(text) is expected
    assert script_drivers.runs_as_script(ast.parse(text)) is expected


def test_a_block_of_prose_drives_nothing():
    assert not script_drivers.drives(PROSE, {"PreTrainedTokenizerBase"})
    assert script_drivers.drives(STATEMENT_AFTER_DOCSTRING, {"QNet"})


DEFINED = "class Interface:\n    pass\n\n\ndef to_mat(x):\n    return x\n\n\n"


@pytest.mark.parametrize("line,script", [
    ("ATTENTION_FUNCTIONS: Interface = Interface()", False),  # a registry, annotated
    ("_QTR_MAT[0] = to_mat(1)", False),  # a registry entry written by subscript
    ("DEFAULT_MAT = to_mat(2)", False),  # a module constant
    ("mat = to_mat(3)", True),  # a driver's line
    ("print(to_mat(4))", True),
])
def test_constants_and_registries_are_no_driver(line, script):
    text = DEFINED + line + "\n"
    assert script_drivers.is_script(text) is script
    assert script_drivers.runs_as_script(ast.parse(text)) is script
