"""What a message or its help says about torch must be true: each claim below is run in torch.

GL016's help names a real dtype (`.to(torch.float32)`) and underlines the src it would change; GL011's help
for padding that reaches a write does not suggest `.clamp(min=0)`, which sends the padded writes onto
position 0; GL022 needs scores that are tensors, not two Python numbers; GL007 needs logits and labels, not
two tensors sliced alike; a `Float[...]` annotation on a tensor the code uses as an index is a contradiction
to report as such, not a raise, while a float the code makes stays an error (GL008).
"""

import pytest

from gather_lint.rules import gl011_index_out_of_range as gl011

from .conftest import lint


def _findings(code: str, rule: str):
    return [f for f in lint(code) if f.code == rule]


def _underlined(finding) -> str:
    _, col, end_col = finding.underline
    return finding.source_line[col - 1:end_col - 1]


# ----- GL016: the help's dtype is spelled as torch spells it, the src is underlined -------------------

SRC_DTYPE = """
import torch
idx = torch.tensor([[0, 1, 2]])
src = torch.tensor([[1, 2, 3]])
out = torch.zeros(3, 5).scatter_(0, idx, src)
"""


def test_src_dtype_help_names_torch_dtype_and_underlines_src():
    [finding] = _findings(SRC_DTYPE, "GL016")
    assert "`.to(torch.float32)` on the src" in finding.help
    assert "`.to(float32)`" not in finding.message
    assert _underlined(finding) == "src"


def test_src_dtype_help_runs_in_torch(torch):
    with pytest.raises(RuntimeError, match="dtype"):
        exec(SRC_DTYPE, {})
    fixed = SRC_DTYPE.replace("idx, src)", "idx, src.to(torch.float32))")  # the help, applied as written
    scope: dict = {}
    exec(fixed, scope)
    assert scope["out"][0].tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]


# ----- GL011: padding that reaches a write ----------------------------------------------------------

PADDED = """
import torch
src = torch.tensor([[5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0]])
labels = torch.tensor([[1, 2, 0, -100], [0, 1, -100, -100]])
out = torch.zeros(2, 10).{call}
"""


@pytest.mark.parametrize("call", ["scatter_add_(1, labels, src)", "scatter_(1, labels, src)",
                                  "scatter_reduce_(1, labels, src, 'amax')"])
def test_padding_into_a_write_is_not_told_to_clamp(call):
    [finding] = _findings(PADDED.format(call=call), "GL011")
    assert "spare slot" in finding.help
    assert "clamp(min=0)`" not in finding.help.split("(`.clamp")[0]  # clamp is named only as what not to do


def test_padding_into_a_read_may_clamp_and_mask():
    [finding] = _findings(PADDED.format(call="gather(1, labels)"), "GL011")
    assert "`.clamp(min=0)`" in finding.help and "mask the result" in finding.help


def _reference(src, labels, accumulate, torch):
    out = torch.zeros(2, 10)
    for b in range(2):
        for k in range(4):
            if labels[b, k] >= 0:
                out[b, labels[b, k]] = out[b, labels[b, k]] + src[b, k] if accumulate else src[b, k]
    return out


def test_torch_clamped_padding_collides_with_real_writes_at_zero(torch):
    scope: dict = {}
    exec(PADDED.format(call="zero_()"), scope)
    src, labels = scope["src"], scope["labels"]
    pad = labels < 0
    clamped = labels.clamp(min=0)
    # scatter_add_: clamping alone adds the padded values into position 0
    added = torch.zeros(2, 10).scatter_add_(1, clamped, src)
    assert not torch.equal(added, _reference(src, labels, True, torch))
    # the advice: zero the padded values, or send them to a spare slot cut off afterwards
    zeroed = torch.zeros(2, 10).scatter_add_(1, clamped, src.masked_fill(pad, 0))
    spare = torch.zeros(2, 11).scatter_add_(1, labels.masked_fill(pad, 10), src)[:, :10]
    assert torch.equal(zeroed, _reference(src, labels, True, torch))
    assert torch.equal(spare, _reference(src, labels, True, torch))
    # scatter_: the padded writes land on position 0 and replace its real value (row 0 wrote 7.0 there)
    written = torch.zeros(2, 10).scatter_(1, clamped, src)
    assert written[0, 0].item() != 7.0
    spare = torch.zeros(2, 11).scatter_(1, labels.masked_fill(pad, 10), src)[:, :10]
    assert torch.equal(spare, _reference(src, labels, False, torch))
    # scatter_reduce: even a zeroed padded value takes part in position 0's reduction (a max of -1.0 and 0.0)
    negative = -src
    zeroed = torch.zeros(2, 10).scatter_reduce_(1, clamped, negative.masked_fill(pad, 0), "amax", include_self=False)
    spare = torch.zeros(2, 11).scatter_reduce_(1, labels.masked_fill(pad, 10), negative, "amax",
                                               include_self=False)[:, :10]
    assert zeroed[1, 0].item() == 0.0 and spare[1, 0].item() == -1.0


def test_runtime_message_for_writes_does_not_clamp():
    for op in ("scatter_", "scatter_add_", "scatter_reduce_", "index_add_", "index_copy_", "__setitem__"):
        text = gl011.message(op, -100, 3, 10, 1, "", "")
        assert "spare slot" in text and "mask or clamp" not in text, op
        assert ("zero the values written" in text) == (op in ("scatter_add_", "index_add_")), op
    assert "mask or clamp padding ids before gather()" in gl011.message("gather", -100, 3, 10, 1, "", "")


# ----- GL022: evidence that the divided scores are a tensor of logits ----------------------------------

@pytest.mark.parametrize("code", [
    """
    def discount(score, penalty):
        score = score / penalty
        return score
    """,
    """
    def rank(scores, i, penalty):
        scores[i] /= penalty
        return scores
    """,
])
def test_penalty_on_python_numbers_is_silent(code):
    assert _findings(code, "GL022") == []


PENALISED_SCORES = """
import torch

def penalise(scores, seen, penalty):
    scores = scores.masked_fill(scores.isnan(), 0.0)
    scores = scores / penalty
    return scores

scores0 = torch.tensor([[-2.0, 1.0]])
out = penalise(scores0.clone(), None, 1.3)
"""


def test_penalty_on_scores_used_as_a_tensor_is_flagged(torch):
    [finding] = _findings(PENALISED_SCORES, "GL022")
    assert finding.line == 6
    scope: dict = {}
    exec(PENALISED_SCORES, scope)
    assert scope["out"][0, 0] > scope["scores0"][0, 0]  # the negative score rose, as the message says


# ----- GL007: the same slice on both sides is the next-token mistake only for logits and labels --------

SAME_SLICE = """
import torch
import torch.nn.functional as F

def pick({params}):
    # {shapes}
    out = {input}.gather(-1, {index}.unsqueeze(-1)).squeeze(-1)
    return out
"""


@pytest.mark.parametrize("params,shapes,inp,index,fires", [
    # a parse tree's score rows and its heads: cut alike on purpose
    ("s, t", "s: [N, N], t: [N]", "s[1:]", "t[1:]", False),
    ("scores, heads", "scores: [B, L, L], heads: [B, L]", "scores[:, 1:]", "heads[:, 1:]", False),
    # one side only
    ("logits, heads", "logits: [B, L, V], heads: [B, L]", "logits[:, :-1]", "heads[:, :-1]", False),
    ("scores, labels", "scores: [B, L, L], labels: [B, L]", "scores[:, :-1]", "labels[:, :-1]", False),
    # logits and labels
    ("logits, labels", "logits: [B, L, V], labels: [B, L]", "logits[:, :-1]", "labels[:, :-1]", True),
    ("h, input_ids", "h: [B, L, V], input_ids: [B, L]", "F.log_softmax(h[:, 1:], -1)", "input_ids[:, 1:]", True),
])
def test_same_slice_needs_logits_and_labels(params, shapes, inp, index, fires):
    code = SAME_SLICE.format(params=params, shapes=shapes, input=inp, index=index)
    found = _findings(code, "GL007")
    assert bool(found) == fires, found
    if fires:
        assert "scored by the prediction made at it" in found[0].message


MODEL_OUTPUT = """
import torch

def token_scores(model, x, batch, tree):
    out = model(x)  # [B, L, V]
    cut = tree(x)  # [B, L, V]
    labels = batch["labels"]  # [B, L]
    a = out[:, :-1].gather(-1, labels[:, :-1].unsqueeze(-1))
    b = cut[:, :-1].gather(-1, labels[:, :-1].unsqueeze(-1))
    lp = batch["logits"]  # [B, L, V]
    c = lp[:, :-1].gather(-1, labels[:, :-1].unsqueeze(-1))
    return a, b, c
"""


def test_same_slice_of_a_model_output_with_labels_is_flagged():
    assert [f.line for f in _findings(MODEL_OUTPUT, "GL007")] == [8, 11]  # `tree(x)` is no model


LOSS_OPERANDS = """
import torch
import torch.nn.functional as F

def step(out, y, s, t):
    # out: [B, L, V], y: [B, L], s: [B, L, V], t: [B, L]
    loss = F.cross_entropy(out.flatten(0, 1), y.flatten())
    a = out[:, 1:].gather(-1, y[:, 1:].unsqueeze(-1))
    b = s[:, 1:].gather(-1, t[:, 1:].unsqueeze(-1))
    return loss, a, b
"""


def test_same_slice_of_a_loss_input_and_target_is_flagged():
    assert [f.line for f in _findings(LOSS_OPERANDS, "GL007")] == [8]


def test_torch_same_slice_scores_each_token_at_its_own_position(torch):
    logits = torch.randn(2, 5, 7).log_softmax(-1)
    labels = torch.randint(0, 7, (2, 5))
    same = logits[:, :-1].gather(-1, labels[:, :-1].unsqueeze(-1)).squeeze(-1)
    own = torch.stack([torch.stack([logits[b, t, labels[b, t]] for t in range(4)]) for b in range(2)])
    next_token = logits[:, :-1].gather(-1, labels[:, 1:].unsqueeze(-1)).squeeze(-1)
    assert torch.equal(same, own)  # each token read at the position that predicts it, as the message says
    assert not torch.equal(same, next_token)


# ----- GL008: a float annotation that the code's own use contradicts ----------------------------------

FACE_NORMALS = '''
from __future__ import annotations

import torch
from jaxtyping import Float
from torch import Tensor


def vertex_normals(vertices: Float[Tensor, "num_vertices 3"], faces: Float[Tensor, "num_faces 3"]):
    v0 = vertices[faces[:, 0]]
    v1 = vertices[faces[:, 1]]
    v2 = vertices[faces[:, 2]]
    n = torch.cross(v1 - v0, v2 - v0, dim=-1)
    normals = torch.zeros_like(vertices)
    normals.index_add_(0, faces[:, 0], n)
    return normals
'''


def test_float_annotation_used_as_index_is_one_warning_naming_both():
    [finding] = _findings(FACE_NORMALS, "GL008")
    assert finding.severity == "warning" and finding.line == 10
    assert '`Float[Tensor, "num_faces 3"]`' in finding.message
    assert "`vertices[faces[:, 0]]` uses `faces[:, 0]` as an index" in finding.message
    assert "raises" not in finding.message
    assert '`Int[Tensor, "num_faces 3"]`' in finding.help
    assert finding.fix is None  # nothing to apply: which side is wrong is the author's call


def test_torch_the_use_runs_with_the_long_tensor_the_annotation_misnames(torch):
    scope: dict = {}
    exec(FACE_NORMALS, scope)
    vertices = torch.randn(4, 3)
    faces = torch.tensor([[0, 1, 2], [0, 2, 3]])  # long, as the function's use needs
    assert scope["vertex_normals"](vertices, faces).shape == (4, 3)  # nothing raises
    with pytest.raises(IndexError, match="tensors used as indices must be long"):
        scope["vertex_normals"](vertices, faces.float())  # only a float tensor, as annotated, would


def test_severity_per_finding_reaches_json_and_sarif(tmp_path):
    import json
    import subprocess
    import sys

    path = tmp_path / "normals.py"
    path.write_text(FACE_NORMALS.lstrip() + "\n\ndef rows(x: Float[Tensor, 'n d'], k: Float[Tensor, 'm']):\n"
                    "    return x.index_select(0, (k / 2).floor())\n")
    run = subprocess.run([sys.executable, "-m", "gather_lint", "--isolated", "--no-cache", "--format", "json",
                          str(path)], capture_output=True, text=True)
    levels = sorted((f["line"], f["severity"]) for f in json.loads(run.stdout) if f["code"] == "GL008")
    divided = path.read_text().splitlines().index("    return x.index_select(0, (k / 2).floor())") + 1
    assert levels == [(9, "warning"), (divided, "error")]  # the division is the code's own float: still an error
    run = subprocess.run([sys.executable, "-m", "gather_lint", "--isolated", "--no-cache", "--format", "sarif",
                          str(path)], capture_output=True, text=True)
    results = json.loads(run.stdout)["runs"][0]["results"]
    assert sorted(r["level"] for r in results if r["ruleId"] == "GL008") == ["error", "warning"]


FLOAT_MADE_HERE = '''
import torch
from jaxtyping import Float, Int64
from torch import Tensor
from torchtyping import TensorType


def {name}(x: Float[Tensor, "b n"], picks: {annotation}):
    {body}
'''


@pytest.mark.parametrize("name,annotation,body,severity", [
    # only the annotation says float: a contradiction
    ("quoted", "\"Float[Tensor, 'b k']\"", "return x.gather(1, picks)", "warning"),
    ("torchtyping", 'TensorType["b", "k", torch.float32]', "return x.gather(1, picks)", "warning"),
    ("viewed", 'Float[Tensor, "b k"]', "return x.gather(1, picks.view(-1, 2).contiguous())", "warning"),
    # the code makes the float: torch raises
    ("divided", 'Int64[Tensor, "b k"]', "return x.gather(1, picks / 2)", "error"),
    ("divided_annotated", 'Float[Tensor, "b k"]', "idx = picks / 2\n    return x.gather(1, idx)", "error"),
    ("cast", 'Float[Tensor, "b k"]', "idx = picks.float()\n    return x.gather(1, idx)", "error"),
    ("rebound", 'Float[Tensor, "b k"]', "picks = picks.float()\n    return x.gather(1, picks)", "error"),
    ("randn", 'Int64[Tensor, "b k"]', "idx = torch.randn(2, 2)\n    return x.gather(1, idx)", "error"),
])
def test_float_from_the_code_stays_an_error(name, annotation, body, severity, torch):
    code = FLOAT_MADE_HERE.format(name=name, annotation=annotation, body=body)
    [finding] = _findings(code, "GL008")
    assert finding.severity == severity, finding.message
    if severity == "error":
        assert "torch raises" in finding.message
        picks = torch.tensor([[0, 1], [1, 0]])
        body_code = "\n".join(line.strip() for line in body.splitlines()).replace("return ", "out = ")
        with pytest.raises(RuntimeError, match="int32/int64|Long|dtype"):
            exec("import torch\n" + body_code, {"x": torch.randn(2, 3), "picks": picks})
    else:
        assert "raises" not in finding.message and "contradicts the use" in finding.message
        assert "torch.long" in finding.help or "Int[" in finding.help


FACES_IN_A_LOOP = '''
import torch
from jaxtyping import Float
from torch import Tensor


def face_sums(vertices: Float[Tensor, "num_vertices 3"], faces: Float[Tensor, "num_faces 3"]):
    sums = vertices.clone()  # [num_vertices, 3]
    for i in range(faces.shape[0]):
        sums = sums + vertices[faces[i]].sum(0)
        sums.index_add_(0, faces[i], vertices[faces[i]])
    return sums
'''


def test_float_annotation_used_as_index_in_a_loop_is_one_warning():
    found = _findings(FACES_IN_A_LOOP, "GL008")
    assert [(f.line, f.severity) for f in found] == [(10, "warning")]
    assert "`vertices[faces[i]]` uses `faces[i]` as an index" in found[0].message
