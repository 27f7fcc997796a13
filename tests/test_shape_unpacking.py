"""GL001 at an unpacking of a tensor's sizes into more or fewer names than it has dims, checked in Python."""
import textwrap

import pytest

from .conftest import lint

VIDEO_HELPER = """
import torch

def pool_frames(x, idx):
    b, c, t, h, w = x.shape  # written for video
    return x.reshape(b, c, t, -1).gather(3, idx)

def encode_images():
    x = torch.randn(2, 3, 4, 5)
    idx = torch.zeros(2, 3, 4, 1, dtype=torch.long)
    return pool_frames(x, idx)
"""


def _run(code: str, call: str):
    namespace = {}
    exec(textwrap.dedent(code), namespace)
    return eval(call, namespace)


def test_a_video_helper_handed_images_is_reported_where_python_raises(torch):
    found = [f for f in lint(VIDEO_HELPER) if f.code == "GL001"]
    assert [(f.line, f.column) for f in found] == [(5, 5)]
    message = found[0].message
    assert "`b, c, t, h, w = x.shape` unpacks 5 sizes, but `x` [2, 3, 4, 5] has 4 dims" in message
    with pytest.raises(ValueError) as raised:
        _run(VIDEO_HELPER, "encode_images()")
    assert f"'ValueError: {raised.value}'" in message  # the message quotes Python's own error


@pytest.mark.parametrize("line, shape", [
    ("n, m, k = y.size()", (3, 4)),
    ("(n,) = y.shape", (3, 4)),
    ("n, m = y.shape", (3,)),
])
def test_fewer_or_more_names_than_dims(torch, line, shape):
    code = f"""
    import torch
    def f():
        y = torch.zeros{shape}
        {line}
        return torch.gather(y, 0, torch.zeros_like(y, dtype=torch.long))
    """
    found = [f for f in lint(code) if f.code == "GL001" and f.line == 5]
    assert len(found) == 1
    with pytest.raises(ValueError) as raised:
        _run(code, "f()")
    assert f"'ValueError: {raised.value}'" in found[0].message


@pytest.mark.parametrize("body", [
    # a branch on the rank: the other spelling is for the other rank
    "if x.ndim == 5:\n            b, c, t, h, w = x.shape\n        else:\n            b, c, h, w = x.shape",
    "if x.dim() == 4:\n            b, c, h, w = x.shape\n        else:\n            b, c, t, h, w = x.shape",
    # a starred name takes what is left
    "*batch, h, w = x.shape",
    "b, *rest = x.shape",
    # the right number of names
    "b, c, h, w = x.shape",
    "b, c, h, w = x.size()",
    # one size, not the sizes
    "b, c = x.size(0), x.size(1)",
])
def test_unpackings_python_accepts_are_silent(torch, body):
    code = f"""
    import torch
    def f(x):
        {body}
        return x.gather(1, torch.zeros_like(x, dtype=torch.long))
    def g():
        return f(torch.randn(2, 3, 4, 5))
    """
    assert [f for f in lint(code) if f.code == "GL001"] == []
    _run(code, "g()")  # Python and torch run it


def test_a_rank_read_from_a_docstring_is_not_enough():
    """Docstrings often describe one call path among several: the rank must come from code."""
    code = '''
    import torch
    def f(x, idx):
        """Args:
            x (Tensor): (batch, channels, height, width)
        """
        b, c, t, h, w = x.shape
        return x.reshape(b, c, t, -1).gather(3, idx)
    '''
    assert [f for f in lint(code) if f.code == "GL001"] == []


def test_an_unpacking_in_a_branch_the_analysis_cannot_decide_is_left_alone(torch):
    """`if video:` with a flag the caller does not fix: the branch may be the path for 5-d input."""
    code = """
    import torch
    def encode(x, video, idx):
        if video:
            b, c, t, h, w = x.shape
        else:
            b, c, h, w = x.shape
        return x.gather(1, idx)
    def run(flag):
        return encode(torch.randn(2, 3, 4, 5), flag, torch.zeros(2, 3, 4, 5, dtype=torch.long))
    """
    assert [f for f in lint(code) if f.code == "GL001"] == []
    assert _run(code, "run(False)").shape == (2, 3, 4, 5)
    with pytest.raises(ValueError):
        _run(code, "run(True)")  # the other path: only for 5-d input
