"""SourceFile's comment lookups: by line ranges, visiting only the lines that hold a `#`."""
from gather_lint.static.source import SourceFile

TEXT = '''import torch  # the library
# memory: [B, N, C]
x = "# not a comment"
y = 1

# gather-lint: shape a=[B, T]
# gather-lint: shape b=[T]
def f(a):  # a: [B, T]
    return a
'''


def test_comments_in_a_range_are_those_of_each_line():
    source = SourceFile(TEXT)
    n = len(source.lines)
    for first in range(0, n + 2):
        for last in range(first - 1, n + 2):
            want = [source.comment(line) for line in range(first, last + 1) if source.comment(line) is not None]
            assert source.comments(first, last) == want
    assert [c.line for c in source.comments(1, n)] == [1, 2, 6, 7, 8]  # the `#` in a string is none


def test_pragmas_stacked_over_a_gap_are_all_read():
    source = SourceFile(TEXT)
    assert source.pragmas(1, len(source.lines)) == [("a", "[B, T]"), ("b", "[T]")]
    assert source.pragmas(7, 7) == [("b", "[T]")]
    assert source.pragmas(8, 9) == []
