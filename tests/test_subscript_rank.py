"""GL001 at a subscript with more indices than the tensor has dims, and the shape facts it needs: a
comment line naming several tensors at once (`# actions, returns: [N]`), and `torch.rand(size=s.size())`
of an untracked s, which has an unknown shape (not a 0-d one)."""
import pytest

from .conftest import codes, lint
from .snippets import run_snippet
from gather_lint.static.shape_text import parse_named_entries

MINIBATCHES = '''
import torch


def minibatches(size, obs, actions, returns, seed=0):
    # obs: [N, obs_dim]; actions, returns: [N]
    g = torch.Generator().manual_seed(seed)
    for _ in range(obs.size(0) // size):
        pick = torch.randint(0, obs.size(0), (size,), generator=g)
        yield obs[pick, :], actions[pick, :], returns[pick]


if __name__ == "__main__":
    batches = list(minibatches(4, torch.randn(16, 3), torch.randint(0, 2, (16,)), torch.randn(16)))
'''

PICK_LINE = "        yield obs[pick, :], actions[pick, :], returns[pick]"


def test_too_many_indices_on_a_commented_vector(torch):
    found = [f for f in lint(MINIBATCHES) if f.code == "GL001"]
    assert [(f.line, f.column) for f in found] == [(MINIBATCHES.splitlines().index(PICK_LINE) + 1,
                                                  PICK_LINE.index("actions[") + 1)], [f.message for f in found]
    assert "2 indices" in found[0].message and "[N]" in found[0].message
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 1"):
        run_snippet(MINIBATCHES)


@pytest.mark.parametrize("code", [
    MINIBATCHES.replace("actions[pick, :]", "actions[pick]"),
    MINIBATCHES.replace("actions[pick, :]", "actions[pick, ...]"),  # an Ellipsis takes no dim
    MINIBATCHES.replace("actions[pick, :]", "actions[pick, None]"),  # None adds a dim
    MINIBATCHES.replace("# obs: [N, obs_dim]; actions, returns: [N]", "# obs: [N, obs_dim]; actions: [N, A]")
    .replace("torch.randint(0, 2, (16,))", "torch.randint(0, 2, (16, 2))"),
], ids=["vector-pick", "ellipsis", "new-axis", "matrix-actions"])
def test_right_rank_or_unknown_items_stay_silent(code, torch):
    assert "GL001" not in [f.code for f in lint(code)]
    run_snippet(code)


def test_a_docstring_rank_is_not_enough():
    """Docstrings describe one call path among several: a rank read there does not make GL001 here."""
    code = MINIBATCHES.replace("    # obs: [N, obs_dim]; actions, returns: [N]\n",
                               '    """\n    Args:\n        actions: tensor of shape [N]\n    """\n')
    assert "GL001" not in [f.code for f in lint(code)]


@pytest.mark.parametrize("comment, expected", [
    ("# obs: [N, D]; actions, returns: [N]", [("obs", "[N, D]"), ("actions", "[N]"), ("returns", "[N]")]),
    ("# logits, labels: [B, T, V], [B, T]", [("logits", "[B, T, V]"), ("labels", "[B, T]")]),
    ("# a, b: [B, T], [B, T, V], [B]", []),  # three shapes for two names: whose is which is not known
    ("# x.shape, y.shape: [B, T]", [("x", "[B, T]"), ("y", "[B, T]")]),
])
def test_comment_entries_naming_several_tensors(comment, expected):
    assert [(name, str(shape)) for name, shape in parse_named_entries(comment)] == expected


SIZED_LIKE = '''
import torch


def corrupt(s, beta):
    choices = torch.rand(size=s.size(), device=s.device)
    replace = choices < beta / 3
    picked = torch.gather(s, 1, s.argsort(1))
    for i in range(s.size(1)):
        s[:, i] = torch.where(replace[:, i], picked[:, i], s[:, i])
    return s


if __name__ == "__main__":
    out = corrupt(torch.randint(0, 9, (3, 5)), 0.5)
'''


def test_rand_with_a_size_keyword_of_unknown_sizes_is_not_0d(torch):
    assert [f.code for f in lint(SIZED_LIKE.replace("out = corrupt(torch.randint(0, 9, (3, 5)), 0.5)", "pass"))] == []
    assert run_snippet(SIZED_LIKE)["out"].shape == (3, 5)


SELECTED_PATH = '''
import torch


def encode(x, video, idx):
    if video:
        frames = x[:, :, :, 0, 0]
    return x.gather(1, idx)


def run(flag):
    return encode(torch.randn(2, 3, 4, 5), flag, torch.zeros(2, 3, 4, 5, dtype=torch.long))
'''


def test_a_branch_the_caller_picks_is_left_to_that_caller(torch):
    """Under one caller's facts, `if video:` may be the path another caller takes with 5-d data."""
    assert "GL001" not in [f.code for f in lint(SELECTED_PATH)]
    namespace = {}
    exec(SELECTED_PATH, namespace)
    assert namespace["run"](False).shape == (2, 3, 4, 5)
    with pytest.raises(IndexError, match="too many indices"):
        namespace["run"](True)


@pytest.mark.parametrize("code", [
    # the same branch outside a parameter's test: a setting of the object, not the caller's choice
    SELECTED_PATH.replace("def encode(x, video, idx):\n    if video:", "def encode(x, video, idx):\n    if SETTING:")
    .replace("import torch\n", "import torch\nSETTING = bool(len(__name__))\n", 1),
    # the tensor built in the function that indexes it: its rank is not a caller's
    SELECTED_PATH.replace("    if video:\n        frames = x[:, :, :, 0, 0]",
                          "    mask = torch.ones(2, 3)\n    if video:\n        frames = mask[:, :, :1]"),
], ids=["module-setting", "local-tensor"])
def test_a_rank_mismatch_in_an_undecided_branch_is_still_reported(code, torch):
    assert "GL001" in [f.code for f in lint(code)]
    namespace = {}
    exec(code, namespace)
    with pytest.raises(IndexError, match="too many indices"):
        namespace["run"](True)


def test_a_zero_dim_bool_index_takes_no_dim(torch):
    # `x.sum(0) > 0` of an [N] x is 0-d: like None it adds a dim, so `x[:, mask]` is [N, 1], not an error
    program = """
import torch

def keep_if_any(scores: torch.Tensor):
    hit = scores.sum(0) > 0
    return scores[:, hit]

if __name__ == "__main__":
    assert keep_if_any(torch.tensor([1.0, 2.0, 3.0])).shape == (3, 1)
"""
    run_snippet(program)
    assert codes(program) == []
    one_dim_mask = program.replace("hit = scores.sum(0) > 0", "hit = scores > 1.5").replace(
        "assert keep_if_any(torch.tensor([1.0, 2.0, 3.0])).shape == (3, 1)", "keep_if_any(torch.tensor([1.0, 2.0, 3.0]))")
    with pytest.raises(IndexError, match="too many indices"):
        run_snippet(one_dim_mask)
    assert codes(one_dim_mask) == ["GL001"]
