"""Padding values the code itself takes out or uses on purpose, and messages that name what the user wrote.

Each static case runs the same code in torch: the correct form runs and gives the intended values, the
buggy form (without the replacement, or without the write-back) raises or reads the wrong entry.
"""
import textwrap

import pytest

from .conftest import lint

# top-k positions padded with -1 to a fixed width, then each -1 sent to an extra zero column P
PICK = '''
import torch


def pick(scores, values):
    # scores: [B, N], values: [B, P]
    P = values.shape[1]
    topk = torch.full((scores.shape[0], 4), -1, dtype=torch.long)
    topk[:, :2] = scores.topk(2, dim=1).indices
    {replace}
    padded = torch.cat([values, torch.zeros(values.shape[0], 1)], dim=1)
    return padded.gather(1, slot)
'''

REPLACEMENTS = [
    "slot = topk.masked_fill(~(topk != -1), P)",
    "slot = topk.masked_fill(topk == -1, P)",
    "slot = topk.masked_fill(topk.eq(-1), P)",
    "slot = topk.masked_fill(torch.eq(topk, -1), P)",
    "slot = topk.masked_fill(topk < 0, P)",
    "slot = topk.masked_fill(topk.ne(-1).logical_not(), P)",
    "missing = topk == -1; slot = topk.masked_fill(missing, P)",
    "slot = torch.where(topk == -1, P, topk)",
    "slot = torch.where(topk != -1, topk, P)",
    "slot = topk.clone(); slot[slot == -1] = P",
    "slot = topk.clone(); slot[slot == -1] = torch.tensor(P)",
    "slot = topk.clamp(min=0)",
]

# masks that do not reach every -1: the padding survives
KEPT = [
    "slot = topk",
    "slot = topk.masked_fill(topk == -2, P)",
    "slot = topk.masked_fill(topk != -1, P)",
    "slot = topk.masked_fill(topk > 0, P)",
    "slot = topk.masked_fill((topk == -1) & (topk > 0), P)",
    "slot = topk.clone(); slot[slot != -1] = torch.tensor(P)",
]


def _run(replace: str, torch):
    namespace = {}
    exec(textwrap.dedent(PICK.format(replace=replace)), namespace)
    scores = torch.tensor([[0.1, 0.9, 0.5], [0.7, 0.2, 0.3]])
    values = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
    return namespace["pick"](scores, values)


@pytest.mark.parametrize("replace", REPLACEMENTS)
def test_a_replacement_where_the_index_holds_its_padding_takes_the_padding_out(replace, torch):
    assert lint(PICK.format(replace=replace)) == []
    picked = _run(replace, torch)
    if "clamp" in replace:  # the -1s read column 0, real data: right only where the caller masks them
        assert picked.tolist() == [[2.0, 3.0, 1.0, 1.0], [5.0, 7.0, 5.0, 5.0]]
    else:  # the top two of each row, then the zero column
        assert picked.tolist() == [[2.0, 3.0, 0.0, 0.0], [5.0, 7.0, 0.0, 0.0]]


@pytest.mark.parametrize("replace", KEPT)
def test_a_mask_that_misses_the_padding_leaves_it_reported(replace, torch):
    found = [(f.line, f.code) for f in lint(PICK.format(replace=replace))]
    assert found == [(12, "GL011")]
    with pytest.raises(RuntimeError, match="out of bounds"):
        _run(replace, torch)


SELECT = '''
import torch


def pick(scores, values):
    # scores: [B, N], values: [B, P]
    topk = torch.full((scores.shape[0], 4), -1, dtype=torch.long)
    topk[:, :2] = scores.topk(2, dim=1).indices
    sel = {select}
    return values.index_select(1, sel)
'''


def test_boolean_selection_of_the_entries_other_than_padding(torch):
    assert lint(SELECT.format(select="topk[topk != -1]")) == []
    assert [f.code for f in lint(SELECT.format(select="topk.flatten()"))] == ["GL011"]
    topk = torch.tensor([[1, 2, -1, -1]])
    values = torch.arange(6.0).reshape(2, 3)
    assert values.index_select(1, topk[topk != -1]).tolist() == [[1.0, 2.0], [4.0, 5.0]]
    with pytest.raises(RuntimeError, match="out of"):
        values.index_select(1, topk.flatten())


# a -1 appended to an index as one more entry: its row (and column) of the result read the input's last
# row, and the code writes that slot at once
MERGE = '''
import torch
import torch.nn.functional as F


def merge(sim, keep):
    # sim: [N, N], keep: [N]
    kept = keep.nonzero().squeeze(1)
    idx = {make}
    {body}
    return s
'''

APPENDED = [
    "torch.cat((kept, torch.tensor([-1])))",
    "torch.cat([kept, kept.new_full((1,), -1)])",
    "F.pad(kept, (0, 1), value=-1)",
]
WRITTEN_BACK = [
    "s = sim[idx][:, idx]\n    s[-1, :] = 0.0\n    s[:, -1] = 0.0",
    "s = sim[idx]\n    s[-1] = 0.0\n    s = s[:, idx]\n    s[:, -1] = 0.0",
    "s = sim[:, idx]\n    s[:, -1] = 0.0",
]


def _merged(make: str, body: str, torch):
    namespace = {}
    exec(textwrap.dedent(MERGE.format(make=make, body=body)), namespace)
    sim = torch.arange(16.0).reshape(4, 4)
    return sim, namespace["merge"](sim, torch.tensor([True, False, True, False]))


@pytest.mark.parametrize("make", APPENDED)
@pytest.mark.parametrize("body", WRITTEN_BACK)
def test_an_appended_minus_one_whose_slot_the_code_writes_is_no_padding(make, body, torch):
    assert lint(MERGE.format(make=make, body=body)) == []
    sim, s = _merged(make, body, torch)
    kept = [0, 2]
    if s.shape[0] == 3:
        assert torch.equal(s[:2, :2], sim[kept][:, kept])
        assert s[2].eq(0).all() and s[:, 2].eq(0).all()
    else:  # only the columns were picked
        assert torch.equal(s[:, :2], sim[:, kept]) and s[:, 2].eq(0).all()


@pytest.mark.parametrize("make,body", [
    (APPENDED[0], "s = sim[idx][:, idx]\n    s[0, :] = 0.0\n    s[:, 0] = 0.0"),  # another slot written
    (APPENDED[0], "s = sim[idx][:, idx]\n    t = s.sum()\n    s[-1, :] = t"),  # read before the write
    (APPENDED[0], "s = sim[idx][:, idx]\n    s[-1, :] = 0.0"),  # only the rows written: the column stays
    (APPENDED[0], "s = sim[:, idx]\n    s[-1, :] = 0.0"),  # the wrong axis written
    ("torch.cat((torch.tensor([-1]), kept))", "s = sim[idx][:, idx]\n    s[-1, :] = 0.0\n    s[:, -1] = 0.0"),
])
def test_a_minus_one_whose_slot_is_not_written_over_stays_reported(make, body, torch):
    assert "GL010" in [f.code for f in lint(MERGE.format(make=make, body=body))]
    sim, s = _merged(make, body, torch)
    if make.startswith("torch.cat((torch.tensor([-1])"):
        # the prepended -1 is the first slot: row 0 holds sim's last row while the write hits a kept row
        assert s[0, 1] == sim[3, 0] and s[2].eq(0).all() and sim[2].ne(0).all()
    assert sim[torch.tensor([-1])].equal(sim[3:])  # what -1 reads: the last row, silently


# ----- run time: GL006 names the user's operands; a wrong dim without padding gets no padding advice -----

def _checked_file(tmp_path, program: str, torch):
    """GatherLintWarning messages of the program run from a real file (the runtime reads its lines)."""
    import runpy
    import warnings

    from gather_lint.runtime import GatherLintWarning, checked

    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(program))
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        with checked(action="warn"):
            scope = runpy.run_path(str(path))
    return scope, [str(w.message) for w in found if issubclass(w.category, GatherLintWarning)]


GATHERED = '''
import torch
import torch.nn.functional as F

torch.manual_seed(0)
log_probs = torch.randn(4, 5).log_softmax(-1)
actions = torch.tensor([0, 1, 2, 3])
advantages = torch.randn(4)
picked = log_probs.gather(1, actions.unsqueeze(1))
{line}
'''


@pytest.mark.parametrize("line,gathered,other", [
    ("out = -(picked * advantages).mean()", "picked", "advantages"),
    ("out = advantages * log_probs.gather(1, actions.unsqueeze(1))", "log_probs.gather(1, actions.unsqueeze(1))",
     "advantages"),
    ("out = torch.sub(advantages,\n                picked)", "picked", "advantages"),
    ("out = advantages.mul(picked)", "picked", "advantages"),
    ("out = F.mse_loss(picked, advantages)", "picked", "advantages"),
    ("scale = advantages * 2; out = picked - advantages", "picked", "advantages"),
])
def test_runtime_gl006_names_the_operands_as_written(line, gathered, other, tmp_path, torch):
    scope, messages = _checked_file(tmp_path, GATHERED.format(line=line), torch)
    (message,) = [m for m in messages if m.startswith("GL006")]
    assert f"`{gathered}` [4, 1]" in message and f"with `{other}` [4]" in message
    assert "gathered result" not in message and "other operand" not in message
    assert tuple(scope["out"].shape) in ((), (4, 4))  # the outer product torch made (mean/mse of it: a scalar)
    picked = scope["picked"]
    assert (picked * scope["advantages"]).shape == (4, 4)


def test_runtime_gl006_without_source_keeps_the_role_names(torch):
    from .checked_runs import with_warnings

    _, messages = with_warnings(GATHERED.format(line="out = picked * advantages"))
    (message,) = [m for m in messages if m.startswith("GL006")]
    assert "`gathered result` [4, 1]" in message and "`other operand` [4]" in message


TOKENS_ON_SEQUENCE = '''
import torch
log_probs = torch.randn(2, 5, 40).log_softmax(-1)  # [B, L, V]
input_ids = torch.randint(5, 40, (2, 5))
try:
    out = log_probs.gather(-2, input_ids.unsqueeze(-1))
except RuntimeError as exc:
    error = str(exc)
'''


def test_runtime_wrong_dim_without_padding_gets_no_padding_advice(tmp_path, torch):
    scope, messages = _checked_file(tmp_path, TOKENS_ON_SEQUENCE, torch)
    assert "out of bounds" in scope["error"]  # torch raises: token ids are no positions in the sequence
    (message,) = [m for m in messages if m.startswith("GL011")]
    assert "did you mean dim=-1?" in message
    assert "padding" not in message
    static = lint(TOKENS_ON_SEQUENCE)
    assert [f.code for f in static] == ["GL004"]


def test_runtime_padding_still_gets_padding_advice(torch):
    from gather_lint.rules import gl011_index_out_of_range as gl011

    assert "mask or clamp padding ids before gather()" in gl011.message("gather", -100, 3, 10, 1, "", "")
    too_large = gl011.message("gather", 0, 12, 10, 1, "", "")
    assert "padding" not in too_large.split("CUDA")[1].replace("no padding", "")
    assert "made for a larger size than 10" in too_large
    with pytest.raises(RuntimeError, match="out of bounds"):
        torch.randn(2, 10).gather(1, torch.tensor([[0, 12]]))


# ----- notebooks: lines inside messages counted within cells, and `gather-lint shapes` per cell -----

def _notebook(tmp_path, *cells: str):
    import json

    data = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# notes\n"]}] + [
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": textwrap.dedent(c).lstrip("\n").splitlines(keepends=True)} for c in cells],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(data, indent=1))
    return path


PADDED_CELL = """
import torch
%matplotlib inline
logps = torch.randn(2, 3, 5).log_softmax(-1)
labels = torch.randint(5, (2, 3))
labels[:, 0] = -100
"""
FLOAT_CELL = """
scores = torch.randn(4, 10)
half = scores.argmax(1) / 2
picked = logps.gather(-1, labels.unsqueeze(-1))
z = torch.gather(scores, 1, half.long().unsqueeze(1))
w = torch.gather(scores, 1, half.unsqueeze(1))
"""


def test_notebook_messages_count_lines_within_cells(tmp_path, torch):
    from gather_lint.api import lint_file

    path = _notebook(tmp_path, PADDED_CELL, FLOAT_CELL)
    found = {f.code: f for f in lint_file(str(path)).findings}
    padded, made_float = found["GL011"], found["GL008"]
    assert padded.path.endswith("nb.ipynb:cell 3") and padded.line == 3
    assert "(set at line 5 of cell 2)" in padded.message  # the -100 written in the cell before
    assert made_float.path.endswith("nb.ipynb:cell 3") and made_float.line == 5
    assert "`/` at line 2)" in made_float.message  # the division two lines up, in the same cell
    # what torch does with the cells run in order
    scope: dict = {}
    exec(PADDED_CELL.replace("%matplotlib inline\n", ""), scope)
    exec(FLOAT_CELL.split("picked")[0], scope)
    with pytest.raises(RuntimeError, match="out of bounds"):
        scope["logps"].gather(-1, scope["labels"].unsqueeze(-1))
    with pytest.raises(RuntimeError, match="int64"):
        torch.gather(scope["scores"], 1, scope["half"].unsqueeze(1))


def test_notebook_line_outside_the_cells_is_left_as_it_is():
    from gather_lint.notebook import cell_lines

    where = [(2, 1), (2, 2), (4, 1)]
    assert cell_lines("made at line 3, then line 1, and line 9", 4, where) == \
        "made at line 1, then line 1 of cell 2, and line 9"


def test_shapes_lists_a_notebook_per_cell(tmp_path):
    import subprocess
    import sys

    path = _notebook(tmp_path, PADDED_CELL, FLOAT_CELL, """
    def f(a):
        # a: [B, N]
        ids = a.topk(2, dim=1).indices
        return ids
    """)
    out = subprocess.run([sys.executable, "-m", "gather_lint", "shapes", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    blocks = out.stdout.split(str(path))[1:]
    headings = [b.splitlines()[0] for b in blocks]
    assert headings == [":cell 2", ":cell 3", ":cell 4:1 f"]
    rows = {b.splitlines()[0]: [r.split()[:3] for r in b.splitlines()[2:]] for b in blocks}
    assert ["3", "logps", "[2,"] in rows[":cell 2"]  # line 3 of its cell, after the skipped magic
    assert ["1", "scores", "[4,"] in rows[":cell 3"]
    assert ["3", "ids", "[B,"] in rows[":cell 4:1 f"]
    with_line = subprocess.run([sys.executable, "-m", "gather_lint", "shapes", f"{path}:3"], capture_output=True, text=True)
    assert with_line.returncode == 2 and "listed for all its cells" in with_line.stderr
    broken = tmp_path / "broken.ipynb"
    broken.write_text('{"cells": 3}')
    out = subprocess.run([sys.executable, "-m", "gather_lint", "shapes", str(broken)], capture_output=True, text=True)
    assert out.returncode == 2 and "not a notebook" in out.stderr and "Traceback" not in out.stderr


TOP_ON_ANOTHER_DIM = '''
import torch
torch.manual_seed(0)
scores = torch.randn(3, 8, 6)
top = scores.topk(2, dim=1).indices  # positions in dim 1 (size 8)
idx = {copy}
try:
    picked = scores.gather(2, idx)  # used along dim 2 (size 6)
except RuntimeError as exc:
    error = str(exc)
'''


@pytest.mark.parametrize("copy", ["top", "top.clone()", "torch.clone(top)", "top.clone().contiguous()"])
def test_runtime_a_copy_of_top_k_positions_keeps_their_dim(copy, tmp_path, torch):
    program = TOP_ON_ANOTHER_DIM.format(copy=copy)
    scope, messages = _checked_file(tmp_path, program, torch)
    codes = [m.split()[0] for m in messages]
    assert codes == ["GL004"], messages
    assert "topk over dim 1" in messages[0] and "use dim=1" in messages[0]
    if not copy.startswith("torch.clone"):  # the static analysis does not follow torch.clone(x) yet
        assert [f.code for f in lint(program)] == ["GL004"]  # the same finding as the static report
    assert scope["top"].max() >= 6 and "out of bounds" in scope["error"]  # torch: positions up to 7 on a dim of 6


def test_runtime_a_copy_of_positions_written_since_has_no_origin(tmp_path, torch):
    program = TOP_ON_ANOTHER_DIM.format(copy="top.clone()").replace("idx = top.clone()", "top[0] = 0\nidx = top.clone()")
    _, messages = _checked_file(tmp_path, program, torch)
    assert not any(m.startswith("GL004") for m in messages)  # the values may be anything now: only their range


# a table grown by one entry at the end of the read dim: -1 (a missing neighbour) reads that entry on purpose
NEIGHBOURS = '''
import torch
import torch.nn.functional as F


def neighbours(feats, edges):
    # feats: [N, D], edges: [N, K]
    nbr = torch.full((feats.shape[0], 4), -1, dtype=torch.long)
    nbr[:, :2] = edges[:, :2]
    {grow}
    return padded[nbr]
'''


def _neighbours(grow: str, torch):
    namespace = {}
    exec(textwrap.dedent(NEIGHBOURS.format(grow=grow)), namespace)
    feats = torch.arange(1.0, 7.0).reshape(3, 2)
    edges = torch.tensor([[1, 2, 0], [0, 2, 1], [0, 1, 2]])
    return feats, namespace["neighbours"](feats, edges)


@pytest.mark.parametrize("grow", [
    "padded = torch.cat([feats, feats.new_zeros(1, feats.shape[1])], dim=0)",
    "padded = torch.cat((feats, torch.zeros((1, feats.shape[1]))), dim=-2)",
    "padded = F.pad(feats, (0, 0, 0, 1))",
])
def test_minus_one_into_a_table_grown_by_one_row_reads_that_row(grow, torch):
    assert lint(NEIGHBOURS.format(grow=grow)) == []
    feats, out = _neighbours(grow, torch)
    assert out[:, 2:].eq(0).all()  # the missing neighbours read the appended zero row
    assert torch.equal(out[0, :2], feats[[1, 2]])


@pytest.mark.parametrize("grow", [
    "padded = feats",
    "padded = F.pad(feats, (0, 0, 1, 0))",  # the row goes first: -1 reads a real row
    "padded = torch.cat([feats, torch.zeros(1, feats.shape[1])], dim=-1)",  # grown along the other dim
    "padded = torch.cat([torch.zeros(1, feats.shape[1]), feats])",  # prepended: -1 reads a real row
])
def test_minus_one_into_a_table_not_grown_for_it_stays_reported(grow, torch):
    assert [f.code for f in lint(NEIGHBOURS.format(grow=grow))] == ["GL010"]
    if "dim=-1" not in grow:  # (that cat raises: the sizes differ on dim 0)
        feats, out = _neighbours(grow, torch)
        assert torch.equal(out[0, 2], feats[-1])  # silently the last real row


def test_summary_counts_a_notebook_as_one_file(tmp_path):
    import subprocess
    import sys

    path = _notebook(tmp_path, PADDED_CELL, FLOAT_CELL, "y = torch.randn(3, 4).gather(1, torch.zeros(3, 4))\n")
    out = subprocess.run([sys.executable, "-m", "gather_lint", "--isolated", "--no-cache", "--format", "concise", str(path)],
                         capture_output=True, text=True)
    cells = {line.split(": ")[0].rsplit(":", 2)[0] for line in out.stdout.splitlines()}
    assert len(cells) == 2  # findings in two cells of the one notebook
    assert "in 1 of 1 file." in out.stderr + out.stdout


@pytest.mark.parametrize("line,named", [
    ("out = picked * advantages", True),
    ("out = (picked * advantages) * (advantages * 2)", False),  # two products on the line: which one is unknown
])
def test_runtime_operands_from_the_line_alone_when_no_column_is_known(line, named, tmp_path, torch, monkeypatch):
    from gather_lint.runtime import operand_text

    monkeypatch.setattr(operand_text, "_running", lambda frame, lines: (None, ""))  # as before Python 3.11
    _, messages = _checked_file(tmp_path, GATHERED.format(line=line), torch)
    (message,) = [m for m in messages if m.startswith("GL006")]
    assert ("`picked` [4, 1]" in message) == named
    assert ("`gathered result` [4, 1]" in message) != named


LOOKED_UP = '''
import torch
torch.manual_seed(0)
emb = torch.nn.Embedding(40, 8)
head = torch.nn.Linear(8, 40)
input_ids = torch.randint({low}, 40, (2, 5))
logits = head(emb(input_ids))  # [B, L, V]
log_probs = logits.log_softmax(-1)
for step in range(2):  # the second call takes the fast path of a signature seen clean
    try:
        out = log_probs.gather({dim}, input_ids.unsqueeze(-1))
    except RuntimeError as exc:
        error = str(exc)
'''


@pytest.mark.parametrize("low", [5, 0])
def test_runtime_ids_an_embedding_looked_up_gathered_along_the_sequence_are_gl004(low, tmp_path, torch):
    program = LOOKED_UP.format(low=low, dim=1)
    if low == 0:  # ids that all fit the sequence dim: no error, silently the wrong entries
        program = program.replace("torch.randint(0, 40, (2, 5))", "torch.tensor([[0, 1, 2, 3, 4], [4, 3, 2, 1, 0]])")
    scope, messages = _checked_file(tmp_path, program, torch)
    gl004 = [m for m in messages if m.startswith("GL004")]
    assert len(gl004) == 2  # both steps: a signature seen before does not skip the check
    assert "embedding of 40 rows" in gl004[0] and "use dim=2" in gl004[0]
    assert not any(m.startswith("GL011") for m in messages)
    if low == 5:
        assert "out of bounds" in scope["error"]
    else:
        picked = scope["out"][0, :, 0]
        meant = scope["log_probs"][0].gather(1, scope["input_ids"][0].unsqueeze(-1))[:, 0]
        assert not torch.equal(picked, meant)


def test_runtime_ids_gathered_along_the_vocabulary_are_not_gl004(tmp_path, torch):
    _, messages = _checked_file(tmp_path, LOOKED_UP.format(low=0, dim=2), torch)
    assert not any(m.startswith("GL004") for m in messages)


def test_runtime_log_prob_names_the_value_and_its_flat_form(tmp_path, torch):
    program = '''
import torch
torch.manual_seed(0)
logits = torch.randn(4, 3)
actions = torch.randint(3, (4,))
dist = torch.distributions.Categorical(logits=logits)
out = dist.log_prob(actions.unsqueeze(-1))
'''
    scope, messages = _checked_file(tmp_path, program, torch)
    (message,) = [m for m in messages if m.startswith("GL006")]
    assert "log_prob(actions.unsqueeze(-1))" in message and "(`actions`)" in message
    assert tuple(scope["out"].shape) == (4, 4)  # every action under every sample's distribution
    assert tuple(scope["dist"].log_prob(scope["actions"]).shape) == (4,)  # the advice: one per sample


def test_runtime_operands_of_torch_code_run_from_the_line_are_not_borrowed():
    import ast

    from gather_lint.runtime.operand_text import _sides

    call = ast.parse("F.some_functional(picked, advantages)", mode="eval").body
    assert _sides(call, "*") is None and _sides(call, "mse_loss") is None
    loss = ast.parse("F.mse_loss(picked, advantages)", mode="eval").body
    assert [ast.unparse(n) for n in _sides(loss, "mse_loss")] == ["picked", "advantages"]
    product = ast.parse("picked - advantages", mode="eval").body
    assert _sides(product, "*") is None
