"""Every op of the static op tables, in its method and its function form, applied to a 0-d tensor, a 1-d
tensor and tensors of unknown rank with plausible arguments, is analysed without an internal error; and
wherever the analysis states the result's shape of a call torch runs, torch gives that shape.

The cases are generated from the tables themselves (tensor_ops.apply_method's names, call_eval's torch
functions), so an op added to a table is covered here without editing this file."""
import ast
import warnings

import pytest

from gather_lint.api import lint_text
from gather_lint.findings import PARSE_ERROR
from gather_lint.static import call_eval, scope_faults, tensor_lists
from gather_lint.static import tensor_ops as ops
from gather_lint.static.analyzer import explain_shapes


def _method_names():
    """Every name tensor_ops.apply_method answers (its `_applied`): the literals and the tables it compares `name` with."""
    with open(ops.__file__, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    apply = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_applied")  # apply_method's table
    names = set()
    for node in ast.walk(apply):
        if not (isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "name"):
            continue
        for right in node.comparators:
            if isinstance(right, ast.Constant) and isinstance(right.value, str):
                names.add(right.value)
            elif isinstance(right, (ast.Tuple, ast.List, ast.Set)):
                names |= {e.value for e in right.elts if isinstance(e, ast.Constant)}
            elif isinstance(right, ast.Name):
                names |= set(getattr(ops, right.id))
    return names


METHODS = sorted(_method_names() | tensor_lists.CHUNKING)
FUNCTIONS = sorted(call_eval._TORCH_ON_INPUT | call_eval._LIKE | tensor_lists.CHUNKING)

# receiver: (the parameter as written, the line that makes x0 in the body, the shape torch runs a parameter with)
RECEIVERS = {
    "rank0": ("_", "x0 = torch.tensor(2.5)", None),
    "rank0_int": ("_", "x0 = torch.tensor(3)", None),
    "rank1": ("_", "x0 = torch.randn(5)", None),
    "unknown_rank": ("x0", "", (3, 5)),
    "trailing_dims_known": ('x0: Float[Tensor, "... d"]', "", (3, 5)),
}
MADE = {"rank0": "torch.tensor(2.5)", "rank0_int": "torch.tensor(3)", "rank1": "torch.randn(5)"}
# dims 0 and -1 (the one dim of a 0-d or 1-d tensor), keepdim, pairs of dims, k=1, sizes, a dtype, a tensor
ARGUMENTS = ["", "0", "-1", "1", "2", "dim=0", "dim=-1", "0, True", "-1, keepdim=True", "0, 0", "-1, 0", "0, -1",
             "1, 0", "1, dim=0", "1, -1", "(0,)", "(-1,)", "torch.float64", "x", "(2,), 1"]

HEAD = ("from __future__ import annotations\nimport typing\nimport torch\nfrom torch import Tensor\n"
        "if typing.TYPE_CHECKING:\n    from jaxtyping import Float\n")


def _function_form(torch, name: str) -> str:
    """torch.softmax, or torch.nn.functional.gelu for the names only F has (the table serves both)."""
    return f"torch.{name}" if hasattr(torch, name) or not hasattr(torch.nn.functional, name) else f"torch.nn.functional.{name}"


def _ops(torch):
    """(function name, [call, ...]) per op and form: all the spellings of one op in one function."""
    for name in METHODS:
        yield f"method_{name}", [f"x.{name}({args})" for args in ARGUMENTS]
    for name in FUNCTIONS:
        spelled = _function_form(torch, name)
        yield f"function_{name}", [f"{spelled}(x{', ' + args if args else ''})" for args in ARGUMENTS]


def _program(torch, receiver: str):
    """One function per op and form: x0 made (or passed), then each spelling as `x = x0; y_k = call` (an
    in-place op may change x), then a gather so that the function is analysed. Returns the text and
    {(function, variable): call}."""
    param, made, _ = RECEIVERS[receiver]
    parts, calls = [HEAD], {}
    for function, spellings in _ops(torch):
        lines = [f"def {function}({param}, idx):"] + ([f"    {made}"] if made else [])
        for k, call in enumerate(spellings):
            calls[(function, f"y_{k}")] = call
            lines += ["    x = x0", f"    y_{k} = {call}"]
        lines.append("    return torch.zeros(3).gather(0, idx)")
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts), calls


def _run_in_torch(torch, calls: dict, receiver: str) -> dict:
    """{(function, variable): torch's result} for the calls torch accepts on this receiver."""
    shape = RECEIVERS[receiver][2]
    ran = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for key, call in calls.items():
            x = torch.randn(*shape) if shape else eval(MADE[receiver], {"torch": torch})
            try:
                ran[key] = eval(call, {"torch": torch, "x": x})
            except Exception:  # not valid on this receiver: only the analysis runs it
                continue
    return ran


@pytest.fixture(scope="module")
def programs():
    """{receiver: (program text, {(function, variable): call}, {(function, variable): torch's result})}."""
    torch = pytest.importorskip("torch")
    made = {receiver: _program(torch, receiver) for receiver in RECEIVERS}
    return {receiver: (text, calls, _run_in_torch(torch, calls, receiver)) for receiver, (text, calls) in made.items()}


def test_the_spellings_are_mostly_code_torch_runs(programs, torch):
    """Every op of the tables runs in torch in some spelling on some receiver, unless torch has no such
    op in that form (a method only torch.nn.functional has, a function form of `view`)."""
    valid = {function for _, _, ran in programs.values() for function, _ in ran}
    functions = {function for _, calls, _ in programs.values() for function, _ in calls}
    exists = {f for f in functions if hasattr(torch.Tensor, f[len("method_"):]) or f.startswith("function_")
              and (hasattr(torch, f[len("function_"):]) or hasattr(torch.nn.functional, f[len("function_"):]))}
    assert len(exists) > 250
    missing = sorted(exists - valid)
    assert len(missing) < len(exists) // 10, missing


@pytest.mark.parametrize("receiver", list(RECEIVERS))
def test_every_op_on_every_rank_is_analysed_without_an_internal_error(receiver, programs, monkeypatch):
    monkeypatch.delenv(scope_faults.RAISE_VARIABLE, raising=False)  # each fault becomes its function's GL000
    text = programs[receiver][0]
    faults = [f for f in lint_text(text, "generated.py").findings if f.code == PARSE_ERROR]
    assert not faults, f"{len(faults)} internal errors: " + "; ".join(f.message for f in faults[:10])


@pytest.mark.parametrize("receiver", list(RECEIVERS))
def test_a_result_shape_the_analysis_states_is_torchs(receiver, programs, torch):
    """Where the analysis knows y's whole shape (0-d results included), torch's y has that shape."""
    text, calls, ran = programs[receiver]
    stated = {}
    for function, _, trace in explain_shapes(text, "generated.py"):
        for _, variable, fact in trace:
            if (function, variable) in calls and fact.shape is not None and not fact.shape.variadic \
                    and all(isinstance(d, int) for d in fact.shape.dims):
                stated[(function, variable)] = tuple(fact.shape.dims)
    checked = [key for key in stated if isinstance(ran.get(key), torch.Tensor)]
    wrong = {calls[key]: (stated[key], tuple(ran[key].shape)) for key in checked if stated[key] != tuple(ran[key].shape)}
    assert not wrong, f"analysis vs torch: {wrong}"
    if receiver.startswith("rank"):
        assert len(checked) > 100  # the comparison is not vacuous
