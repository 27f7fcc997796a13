"""The analyzer against the contract on generated programs: with every shape written in the
source (in the ways users write them), the analyzer reports exactly the contract's codes on the
concrete shapes; with a fact removed it reports a subset, never a different code."""
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gather_lint.api import lint_text
from gather_lint.contract import Site, TensorInfo
from gather_lint.rules import check
from gather_lint.dims import Shape
from gather_lint.ops import OPS
from gather_lint.rules import RULES_BY_CODE, is_static

EXAMPLES = int(os.environ.get("GATHER_LINT_FUZZ_EXAMPLES", "150"))
COMMON = dict(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
              derandomize="GATHER_LINT_FUZZ_EXAMPLES" not in os.environ)
shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)
STYLES = ("constructor", "comment", "jaxtyping", "shape_binding")
NAMES = "ABCDE"


def declare(name, shape, style, dtype="float32"):
    dims = ", ".join(map(str, shape))
    if style == "constructor":
        maker = "torch.randn" if dtype == "float32" else "torch.zeros"
        kw = "" if dtype == "float32" else f", dtype=torch.{dtype}"
        return f"    {name} = {maker}({dims}{kw})\n"
    if style == "comment":
        return f"    {name} = load().to(torch.{dtype})  # [{dims}]\n"
    if style == "jaxtyping":
        head = "Float" if dtype == "float32" else ("Int64" if dtype == "int64" else "Int32")
        cast = "" if dtype == "float32" else f".to(torch.{dtype})"
        return f"    {name}: {head}[Tensor, '{' '.join(map(str, shape))}'] = load(){cast}\n"
    names = [f"{name}{NAMES[i]}" for i in range(len(shape))]
    kw = "" if dtype == "float32" else f", dtype=torch.{dtype}"
    binding = f"    {', '.join(names)}{',' if len(names) == 1 else ''} = {shape!r}\n"
    return binding + f"    {name} = torch.zeros({', '.join(names)}{kw})\n"


def contract_codes(op, in_shape, idx_shape, dim, idx_dtype, src_shape=None):
    payload = TensorInfo(Shape(src_shape), "float32", None, "src") if src_shape is not None else None
    site = Site(OPS[op], TensorInfo(Shape(in_shape), "float32", None, "x"),
                TensorInfo(Shape(idx_shape), idx_dtype, None, "idx"), dim, payload=payload)
    return sorted({v.code for v in check(site) if is_static(RULES_BY_CODE[v.code])})


@settings(**COMMON)
@given(shapes, shapes, st.integers(-3, 2), st.sampled_from(["int64", "int32", "float32"]),
       st.sampled_from(STYLES), st.sampled_from(STYLES),
       st.sampled_from(["gather", "scatter_add", "take_along_dim", "index_select"]), st.booleans())
def test_analyzer_reports_the_contract(in_shape, idx_shape, dim, idx_dtype, in_style, idx_style, op, drop):
    src_line = ""
    call = {"gather": f"x.gather({dim}, idx)", "scatter_add": f"x.scatter_add({dim}, idx, src)",
            "take_along_dim": f"torch.take_along_dim(x, idx, dim={dim})",
            "index_select": f"x.index_select({dim}, idx)"}[op]
    src_shape = None
    if op == "scatter_add":
        src_shape = idx_shape
        src_line = declare("src", src_shape, "constructor")
    program = ("import torch\nfrom jaxtyping import Float, Int32, Int64\nfrom torch import Tensor\n"
               "def f(load):\n" + declare("x", in_shape, in_style)
               + (declare("idx", idx_shape, idx_style, idx_dtype) if not drop else "    idx = load()\n")
               + src_line + f"    return {call}\n")
    found = sorted({f.code for f in lint_text(program, "gen.py").findings})
    expected = contract_codes(op, in_shape, idx_shape, dim, idx_dtype, src_shape)
    if drop:
        assert set(found) <= set(expected), program
    else:
        assert found == expected, program
