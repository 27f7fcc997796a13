"""Suggested code in messages is valid code: non-atomic expressions are parenthesized."""
import ast

import pytest

from gather_lint.api import lint_text
from gather_lint.suggest import method_call, negated


@pytest.mark.parametrize("receiver,expected", [
    ("actions", "actions.unsqueeze(1)"),
    ("batch.actions", "batch.actions.unsqueeze(1)"),
    ("ids[:, 0]", "ids[:, 0].unsqueeze(1)"),
    ("torch.arange(4)", "torch.arange(4).unsqueeze(1)"),
    ("actions + 0", "(actions + 0).unsqueeze(1)"),
    ("a if c else b", "(a if c else b).unsqueeze(1)"),
    ("-ids", "(-ids).unsqueeze(1)"),
    ("ids ** 2", "(ids ** 2).unsqueeze(1)"),
    ("3", "(3).unsqueeze(1)"),
    ("index", "index.unsqueeze(1)"),  # a runtime role name stays as it is
])
def test_method_call_parenthesizes_what_the_call_would_split(receiver, expected):
    assert method_call(receiver, "unsqueeze(1)") == expected
    ast.parse(expected, mode="eval")


def test_negated():
    assert negated("v") == "-v" and negated("v + 1") == "-(v + 1)" and negated("f(v)") == "-f(v)"


def test_gl001_suggestion_is_parenthesized():
    source = ("import torch\nq = torch.randn(32, 4)  # [B, A]\nactions = torch.randint(4, (32,))\n"
              "out = q.gather(1, actions + 0)\n")
    [finding] = [f for f in lint_text(source, "m.py").findings if f.code == "GL001"]
    assert "add the missing dim with `(actions + 0).unsqueeze(1)`" in finding.message


def test_gl013_negated_increment_is_parenthesized():
    source = ("import torch\ncounts = torch.zeros(10)\nids = torch.randint(10, (5,))\nw = torch.ones(5)\n"
              "counts[ids] -= w + 1\n")
    [finding] = [f for f in lint_text(source, "m.py").findings if f.code == "GL013"]
    assert "`counts.index_put_((ids,), -(w + 1), accumulate=True)`" in finding.message
