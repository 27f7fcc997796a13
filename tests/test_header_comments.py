"""Parameter shapes stated in a comment atop a function body, and the comments that are not shapes."""
import textwrap

import pytest

from gather_lint.static.header_comments import _pairs

from .conftest import codes, lint


def test_pairs_are_read_only_when_the_whole_comment_is_pairs():
    assert {k: str(v) for k, v in _pairs(" feats: [N, F], picks: [N]").items()} == {"feats": "[N, F]", "picks": "[N]"}
    assert {k: str(v) for k, v in _pairs(" x: (B, T, C); y: (B,).").items()} == {"x": "[B, T, C]", "y": "[B]"}
    assert _pairs(" feats: [N, F] are the node features") == {}
    assert _pairs(" Indices: [1, 3, 5] (odd)") == {}
    assert _pairs(" see the paper, eq. 3") == {}


def test_a_header_comment_gives_parameters_their_shapes():
    code = """
    import torch
    def score(emb, y):
        \"\"\"Per-sample score.\"\"\"
        # emb: [N, K], y: [N]
        probs = emb.softmax(-1)
        return probs[:, y].mean()
    """
    assert codes(code) == ["GL017"]


def test_comments_after_the_first_statement_or_on_other_names_are_not_headers():
    late = """
    import torch
    def score(emb, y):
        probs = emb.softmax(-1)  # [N, K]
        # y: [N]
        return probs[:, y].mean()
    """
    other = """
    import torch
    def score(emb, z):
        # emb: [N, K], labels: [N]
        probs = emb.softmax(-1)  # [N, K]
        y = z.long()
        return probs[:, y].mean()
    """
    # a `# y: [N]` line after the first statement is not a header, but it is a standalone shape
    # comment naming y before its use (comment_facts), which is evidence enough on its own
    assert codes(late) == ["GL017"]
    assert codes(other) == []


def test_an_annotation_wins_over_the_header_comment():
    code = """
    import torch
    from jaxtyping import Int
    from torch import Tensor
    def score(emb, y: Int[Tensor, "k"]):
        # emb: [N, K], y: [N]
        probs = emb.softmax(-1)
        return probs[:, y].mean()
    """
    assert codes(code) == []


# A comment that names the dims of a parameter whose sizes a caller's code proved adds no informal fact:
# the named tensor still carries the caller's sizes into the functions it is passed to.
_PASSED_ON = """
import torch
class Table:
    def __init__(self, rows=4, dim=6):
        self.weight = torch.randn(rows, dim)
    def pick(self, ids):
        w = self.weight.unsqueeze(0)  # [1, R, D]
        return w.gather(1, ids.unsqueeze(-1).expand(-1, -1, w.shape[-1]))
class Model:
    def __init__(self):
        self.table = Table()
    def forward(self, ids):
        {COMMENT}
        first = ids[:, :2]
        return self.table.pick(first)
if __name__ == "__main__":
    print(Model().forward(torch.randint(0, 4, (3, 5))).shape)
"""


@pytest.mark.parametrize("comment", ["# ids: [B, T]", "# ids: (batch, tokens) of table rows",
                                     "step = 0\n        # ids: [B, T]"])
def test_a_comment_naming_proved_sizes_keeps_them_for_the_callee(comment, torch):
    code = _PASSED_ON.replace("{COMMENT}", comment)
    assert [(f.code, f.line) for f in lint(code)] == [("GL003", 8)]
    with pytest.raises(RuntimeError, match="Size does not match at dimension 0"):
        exec(compile(textwrap.dedent(code), "<case>", "exec"), {"__name__": "__main__"})


def test_without_the_callers_sizes_the_comment_stays_informal():
    code = _PASSED_ON.replace("{COMMENT}", "# ids: [B, T]").split("if __name__")[0]
    assert codes(code) == []
