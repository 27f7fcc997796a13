"""The op table's further entries (further_ops, functional_results, python_results) state what torch does:
each op runs here in torch on concrete tensors, and whatever shape or dtype the analysis states for the same
code (`gather-lint shapes`' facts) is torch's. Every entry is exercised by some case where it states one."""
import warnings

import pytest

from gather_lint.static import functional_results, further_ops, python_results
from gather_lint.static.analyzer import explain_shapes
from gather_lint.static.numpy_values import ArrayVal
from gather_lint.static.scalars import NumberVal
from gather_lint.static.values import DimVal, Literal, SeqVal, TensorVal
from gather_lint.dims import Shape

SETUP = """\
    x = torch.randn(3, 4)
    h = torch.randn(3, 4).half()
    d = torch.randn(3, 4).double()
    i = torch.randint(0, 5, (3, 4))
    b = torch.rand(3, 4) > 0.5
    v = torch.randn(5)
    w = torch.randn(6)
    n = torch.randint(0, 4, (7,))
    a = torch.randn(2, 3, 4)
    c = torch.randn(2, 4, 5)
    img = torch.randn(2, 3, 8, 8)
    seq = torch.randn(2, 3, 10)
    labels = torch.randint(0, 4, (3,))
"""

# (the entry it exercises, the expression); each becomes `y = expression` after SETUP
CASES = [(name, f"{operand}.{name}()") for name in sorted(further_ops.FLOAT_VALUED) for operand in ("x", "i", "h")] + [
    (name, f"torch.{name}(i)") for name in ("sin", "cos", "log2", "exp2", "acos")] + [
    (name, f"x.{name}(i)") for name in sorted(further_ops.FLOAT_VALUED_PAIRS)] + [
    ("xlogy", "torch.xlogy(i, 2)"), ("atan2", "torch.atan2(i, v[:4])"), ("xlogy", "torch.xlogy(x, d)"),
    ("remainder", "i.remainder(3)"), ("remainder", "torch.remainder(x, 2)"), ("fmod", "i.fmod(2.5)"),
    ("bitwise_and", "b.bitwise_and(b)"), ("bitwise_xor", "torch.bitwise_xor(i, i)"), ("bitwise_or", "i.bitwise_or(3)"),
] + [(name, f"x.clone().{name}({arg})") for name, arg in [
    ("add_", "1"), ("sub_", "x"), ("mul_", "2.5"), ("copy_", "i"), ("masked_scatter_", "b, torch.randn(12)"),
    ("neg_", ""), ("abs_", ""), ("floor_", ""), ("ceil_", ""), ("round_", ""), ("trunc_", ""), ("sign_", ""),
    ("pow_", "2"), ("remainder_", "2"), ("fmod_", "2"), ("clamp_min_", "0"), ("clamp_max_", "1"), ("random_", "0, 5"),
    ("bernoulli_", "0.5"), ("addcmul_", "x, x"), ("square_", ""), ("div_", "2"), ("sqrt_", ""), ("rsqrt_", ""),
    ("sin_", ""), ("cos_", ""), ("tanh_", ""), ("exponential_", ""), ("cauchy_", ""), ("log_normal_", ""),
    ("geometric_", "0.5"), ("reciprocal_", ""), ("lerp_", "x, 0.5"), ("addcdiv_", "x, x.abs() + 1"),
    ("log1p_", ""), ("expm1_", "")]] + [(name, f"i.clone().{name}({arg})") for name, arg in [
    ("add_", "2"), ("mul_", "i"), ("bitwise_and_", "3"), ("bitwise_or_", "i"), ("bitwise_xor_", "1"),
    ("random_", "0, 9"), ("div_", "2, rounding_mode='floor'")]] + [(name, f"b.clone().{name}({arg})") for name, arg in [
    ("logical_not_", ""), ("logical_and_", "b"), ("logical_or_", "b")]] + [
    ("mm", "x.mm(torch.randn(4, 6))"), ("mm", "torch.mm(x, x.t())"), ("bmm", "a.bmm(c)"), ("bmm", "torch.bmm(a, c)"),
    ("mv", "x.mv(torch.randn(4))"), ("dot", "v.dot(v)"), ("outer", "torch.outer(v, w)"), ("ger", "v.ger(w)"),
    ("outer", "torch.outer(n, v)"), ("cdist", "torch.cdist(a, torch.randn(6, 4))"), ("cdist", "torch.cdist(x, x)"),
    ("matmul", "torch.matmul(x, torch.randn(4, 2))"),
    ("tile", "x.tile((2,))"), ("tile", "x.tile(2, 1, 3)"), ("tile", "torch.tile(v, (3, 2))"),
    ("unfold", "w.unfold(0, 2, 2)"), ("unfold", "seq.unfold(-1, 4, 3)"), ("unfold", "x.unfold(1, 3, 1)"),
    ("as_strided", "x.as_strided((2, 2), (1, 2))"), ("as_strided", "torch.as_strided(x, (4,), (3,))"),
    ("view_as", "i.view_as(torch.randn(12))"), ("view_as", "x.view_as(a[0])"),
    ("unique", "n.unique()"), ("unique", "torch.unique(i)"), ("unique", "i.unique(return_counts=True)[1]"),
    ("unique", "i.unique(dim=0)"), ("unique", "i.unique(return_inverse=True)[1]"),
    ("unique_consecutive", "n.unique_consecutive()"), ("unique_consecutive", "torch.unique_consecutive(i, dim=1)"),
    ("cummax", "x.cummax(1)[0]"), ("cummax", "torch.cummax(i, dim=0)[1]"), ("cummin", "x.cummin(-1).indices"),
    ("histc", "v.histc()"), ("histc", "torch.histc(d, bins=7)"), ("histc", "torch.histc(x, 12, min=0, max=1)"),
    ("bincount", "n.bincount()"), ("bincount", "torch.bincount(n, minlength=10)"),
    ("bincount", "torch.bincount(n, weights=torch.randn(7))"),
    ("diff", "x.diff()"), ("diff", "torch.diff(x, n=2, dim=0)"), ("diff", "seq.diff(dim=1)"),
    ("diff", "x.diff(append=x)"),
    ("where", "x.where(b, 0.0)"), ("where", "x.where(b, d)"), ("where", "i.where(b[0], i)"),
    ("masked_scatter", "v[:4].masked_scatter(b, torch.randn(12))"), ("masked_scatter", "torch.masked_scatter(x, b, x)"),
    ("lerp", "x.lerp(x, 0.3)"), ("lerp", "v[:4].lerp(x, x)"), ("lerp", "torch.lerp(x, d.float(), 0.5)"),
    ("combinations", "torch.combinations(v)"), ("combinations", "torch.combinations(n, r=3)"),
    ("combinations", "torch.combinations(v, 1)"),
    ("nanmean", "x.nanmean()"), ("nanmean", "torch.nanmean(x, dim=1)"), ("nanmean", "x.nanmean(0, keepdim=True)"),
    ("meshgrid", "torch.meshgrid(v, w, indexing='ij')[0]"), ("meshgrid", "torch.meshgrid(v, w, indexing='xy')[1]"),
    ("meshgrid", "torch.meshgrid([v, w, torch.randn(2)], indexing='ij')[2]"),
    ("hstack", "torch.hstack([v, w])"), ("hstack", "torch.hstack((x, i))"), ("hstack", "torch.hstack([x, x])"),
    ("vstack", "torch.vstack([v, v])"), ("vstack", "torch.vstack((x, x[:1]))"), ("row_stack", "torch.row_stack([v, v])"),
    ("where_of_numbers", "torch.where(b, 1.0, 0.0)"), ("where_of_numbers", "torch.where(b, 1, 0)"),
    ("where_of_numbers", "torch.where(b[0], 1, -0.5)"), ("where_of_numbers", "torch.where(x > 0, True, False)"),
    ("where_of_numbers", "torch.where(b, 2, False)"),
    ("unbind", "torch.unbind(x, 1)[0]"), ("masked_fill", "torch.masked_fill(i, b, 0)"), ("clone", "torch.clone(h)"),
    ("quantile", "x.quantile(0.5)"), ("quantile", "torch.quantile(x, 0.9, dim=1)"),
    ("quantile", "x.quantile(torch.tensor([0.1, 0.9]), dim=0, keepdim=True)"), ("quantile", "x.quantile(0.5, 1, True)"),
    ("quantile", "torch.quantile(d, torch.tensor([0.2, 0.5, 0.7]).double())"), ("nanquantile", "x.nanquantile(0.3, dim=-1)"),
    ("cross", "torch.cross(a[..., :3], a[..., :3], dim=-1)"), ("cross", "x[:3, :3].cross(x[:1, :3], dim=1)"),
    ("masked_select", "x.masked_select(b)"), ("masked_select", "torch.masked_select(i, b)"),
    ("bernoulli", "torch.bernoulli(x.sigmoid())"), ("bernoulli", "d.sigmoid().bernoulli()"),
    ("expand_copy", "torch.expand_copy(v, (3, 5))"), ("expand_copy", "torch.expand_copy(x[:1], (2, -1))"),
    ("addcmul", "torch.addcmul(x, x[:1], v[:4], value=0.5)"), ("addcmul", "i.addcmul(i, i)"),
    ("addcdiv", "x[:1].addcdiv(x, d.float())"), ("addcdiv", "torch.addcdiv(v[:4], x, x)"),
    ("maximum", "x.maximum(d)"), ("maximum", "torch.maximum(i, x[:1])"), ("minimum", "i.minimum(i[:, :1])"),
    ("fmax", "torch.fmax(x, x[:1])"), ("fmin", "h.fmin(h)"), ("ravel", "a.ravel()"), ("ravel", "torch.ravel(i)"),
    ("reshape_as", "v[:4].reshape_as(x[0])"), ("conj", "x.conj()"), ("conj", "torch.conj(i)"),
    ("conj_physical", "x.conj_physical()"), ("resolve_conj", "d.resolve_conj()"), ("resolve_neg", "h.resolve_neg()"),
    ("cumsum_", "x.clone().cumsum_(0)"), ("cumprod_", "i.clone().cumprod_(1)"),
    ("searchsorted", "torch.searchsorted(v.sort().values, 0.5)"),
    ("searchsorted", "torch.searchsorted(v.sort().values, 2, out_int32=True)"),
] + [(name, f"{operand}.{name}()") for name in ("exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh", "logit", "log1p",
                                                 "expm1", "erf", "reciprocal", "square") for operand in ("i", "b", "h")] + [
    (name, f"torch.{name}(b)") for name in ("exp", "sigmoid", "square")] + [("softsign", "F.softsign(i)")] + [
    (name, f"{receiver}.{name}({operand})") for name in ("mul", "add", "sub", "pow", "clamp_min", "clamp_max")
    for receiver, operand in (("i", "0.5"), ("i", "2"), ("x[:, :1]", "x"), ("v[:4]", "i"), ("b", "b"))
    if not (receiver == "b" and name in ("pow", "sub"))] + [  # torch refuses bool - bool and bool ** bool
    ("mul", "torch.mul(x[:1], x)"), ("pow", "torch.pow(i, 0.5)"), ("add", "x[:1].add(i, alpha=2)"),
] + [(name, f"F.{name}(x, labels)") for name in ("cross_entropy", "nll_loss", "multi_margin_loss")] + [
    ("cross_entropy", "F.cross_entropy(h.float(), labels, reduction='sum')"),
    ("cross_entropy", "F.cross_entropy(d, labels)"), ("nll_loss", "F.nll_loss(x.log_softmax(-1), labels, reduction='mean')"),
    ("multilabel_soft_margin_loss", "F.multilabel_soft_margin_loss(x, b.float())"),
] + [(name, f"F.{name}(x.sigmoid(), x.sigmoid())") for name in sorted(functional_results._PAIR_LOSSES)] + [
    ("mse_loss", "F.mse_loss(x, d)"), ("kl_div", "F.kl_div(x.log_softmax(-1), x.softmax(-1), reduction='batchmean')"),
    ("l1_loss", "F.l1_loss(d, d, reduction='sum')"),
    ("interpolate", "F.interpolate(img, size=(4, 6))"), ("interpolate", "F.interpolate(img, size=5, mode='bilinear')"),
    ("interpolate", "F.interpolate(img, scale_factor=2)"), ("interpolate", "F.interpolate(seq, scale_factor=1.5)"),
    ("interpolate", "F.interpolate(img.half(), scale_factor=0.5, mode='nearest')"), ("upsample", "F.upsample(img, size=16)"),
    ("grid_sample", "F.grid_sample(img, torch.rand(2, 5, 7, 2) * 2 - 1, align_corners=False)"),
    ("affine_grid", "F.affine_grid(torch.randn(2, 2, 3), (2, 3, 5, 7), align_corners=False)"),
    ("affine_grid", "F.affine_grid(torch.randn(2, 3, 4).double(), [2, 1, 3, 5, 6], align_corners=False)"),
    ("scaled_dot_product_attention", "F.scaled_dot_product_attention(a, c.transpose(1, 2), c.transpose(1, 2)[..., :3])"),
    ("scaled_dot_product_attention", "F.scaled_dot_product_attention(img, img, img[..., :3])"),
    ("cosine_similarity", "F.cosine_similarity(x, x)"), ("cosine_similarity", "F.cosine_similarity(a, x, dim=-1)"),
    ("cosine_similarity", "F.cosine_similarity(v[:4], x, dim=0)"), ("cosine_similarity", "torch.cosine_similarity(a, a, 1)"),
    ("conv1d", "F.conv1d(seq, torch.randn(6, 3, 3))"), ("conv1d", "F.conv1d(seq, torch.randn(6, 3, 3), None, 2, 1)"),
    ("conv2d", "F.conv2d(img, torch.randn(5, 3, 3, 3), padding=1)"),
    ("conv2d", "F.conv2d(img, torch.randn(6, 1, 2, 2), stride=2, groups=3)"),
    ("conv2d", "F.conv2d(img, torch.randn(4, 3, 3, 1), dilation=2)"),
    ("max_pool2d", "F.max_pool2d(img, 2)"), ("max_pool2d", "F.max_pool2d(img, 3, stride=2, padding=1)"),
    ("max_pool1d", "F.max_pool1d(seq, 2)"), ("max_pool3d", "F.max_pool3d(torch.randn(1, 2, 4, 6, 8), (2, 3, 2))"),
    ("avg_pool1d", "F.avg_pool1d(seq, 3, 2)"), ("avg_pool2d", "F.avg_pool2d(img, kernel_size=4)"),
    ("avg_pool3d", "F.avg_pool3d(torch.randn(1, 2, 4, 6, 8), 2, padding=1)"),
    ("adaptive_avg_pool2d", "F.adaptive_avg_pool2d(img, 1)"), ("adaptive_avg_pool1d", "F.adaptive_avg_pool1d(seq, 4)"),
    ("adaptive_max_pool2d", "F.adaptive_max_pool2d(img, (3, 2))"),
    ("adaptive_avg_pool3d", "F.adaptive_avg_pool3d(torch.randn(1, 2, 4, 6, 8), 2)"),
    ("adaptive_max_pool1d", "F.adaptive_max_pool1d(seq, output_size=5)"),
    ("adaptive_max_pool3d", "F.adaptive_max_pool3d(torch.randn(1, 2, 4, 6, 8), (1, 2, 3))"),
    ("linear", "F.linear(x, weight=torch.randn(7, 4))"),
    ("linear", "F.linear(input=a.double(), weight=torch.randn(2, 4).double())"),
    ("conv3d", "F.conv3d(torch.randn(1, 2, 5, 6, 7), torch.randn(3, 2, 2, 3, 3), padding=(0, 1, 1))"),
]

HEAD = "import torch\nimport torch.nn.functional as F\n\n"


def _program():
    parts = [HEAD]
    for k, (_, expression) in enumerate(CASES):
        parts.append(f"def case_{k}():\n{SETUP}    y = {expression}\n    return y\n")
    return "\n".join(parts)


def _stated():
    """{case number: (shape as ints or None, dtype or None)} for y, where the analysis says anything."""
    stated = {}
    for function, _, trace in explain_shapes(_program(), "entries.py"):
        for _, variable, fact in trace:
            if variable != "y" or not function.startswith("case_"):
                continue
            shape = fact.shape
            dims = tuple(shape.dims) if shape is not None and not shape.variadic and all(
                isinstance(d, int) for d in shape.dims) else None
            stated[int(function[len("case_"):])] = (dims, fact.dtype)
    return stated


@pytest.fixture(scope="module")
def compared():
    """[(entry, expression, analysis (shape, dtype), torch's (shape, dtype))] for every case torch runs."""
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    stated = _stated()
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, (entry, expression) in enumerate(CASES):
            torch.manual_seed(k)
            scope = {"torch": torch, "F": F}
            exec("\n".join(line.strip() for line in SETUP.splitlines()), scope)
            try:
                y = eval(expression, scope)
            except Exception as exc:  # a case torch refuses is a mistake of the case (test below)
                out.append((entry, expression, stated.get(k, (None, None)), exc))
                continue
            ran = (tuple(y.shape), str(y.dtype).replace("torch.", ""))
            out.append((entry, expression, stated.get(k, (None, None)), ran))
    return out


def test_every_case_runs_in_torch(compared):
    refused = {expression: repr(ran) for _, expression, _, ran in compared if isinstance(ran, Exception)}
    assert not refused


def test_every_shape_and_dtype_the_analysis_states_is_torchs(compared):
    compared = [c for c in compared if not isinstance(c[3], Exception)]
    wrong = {expression: (said, ran) for _, expression, said, ran in compared
             if (said[0] is not None and said[0] != ran[0]) or (said[1] is not None and said[1] != ran[1])}
    assert not wrong, f"analysis vs torch: {wrong}"


def test_every_entry_states_a_shape_or_a_dtype_somewhere(compared):
    """No entry is checked vacuously: each states a whole shape in some case, and a dtype in some case
    (python_results' entries are checked below, on their own values)."""
    entries = set(further_ops.METHODS) | set(further_ops.FUNCTIONS) | set(functional_results.FUNCTIONS) | {
        "nanmean", "unbind", "masked_fill", "clone", "matmul", "where_of_numbers"}
    shaped = {entry for entry, _, said, _ in compared if said[0] is not None}
    typed = {entry for entry, _, said, _ in compared if said[1] is not None}
    exercised = {entry for entry, _, _, _ in compared}
    assert not entries - exercised, sorted(entries - exercised)
    assert not entries - typed, sorted(entries - typed)
    unshaped = set(functional_results.FUNCTIONS) - shaped  # F's entries all state whole shapes
    assert not unshaped, sorted(unshaped)
    assert len(shaped) > 0.8 * len(exercised)


def test_integer_receivers_of_float_in_place_ops_are_refused_by_torch_and_unknown_here(torch):
    """sqrt_ of an int64 tensor raises in torch: the entry says nothing of a result."""
    with pytest.raises(RuntimeError):
        torch.tensor([4]).sqrt_()
    with pytest.raises(RuntimeError):
        torch.tensor([4]).div_(2)
    ints = TensorVal(Shape((1,)), "int64")
    assert further_ops.float_in_place(ints, [], {}) is None
    assert further_ops.float_in_place(ints, [DimVal(2)], {"rounding_mode": Literal("floor")}) == TensorVal(Shape((1,)), "int64")
    assert torch.tensor([4]).div_(2, rounding_mode="floor").dtype == torch.int64
    with pytest.raises(RuntimeError):
        torch.tensor([4]).histc()
    assert further_ops.histc(ints, [], {}) is None


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "float32", "float64", "float16", "bool"])
def test_python_results_are_the_python_values_torch_gives(torch, dtype):
    t = torch.ones(3, dtype=getattr(torch, dtype))
    scalar = t[0]
    one = TensorVal(Shape(()), dtype)
    three = TensorVal(Shape((3,)), dtype)
    kinds = {DimVal: int, NumberVal: float}
    item = python_results.item(one, [], {})
    if item is not None:
        assert isinstance(scalar.item(), kinds[type(item)]) and not isinstance(scalar.item(), bool)
    else:
        assert isinstance(scalar.item(), bool)
    listed = python_results.tolist(three, [], {})
    if listed is not None:
        assert isinstance(listed, SeqVal) and len(listed.items) == len(t.tolist())
        assert all(isinstance(v, kinds[type(listed.items[0])]) for v in t.tolist())
    assert python_results.numpy(three, [], {}) == ArrayVal(str(t.numpy().dtype), Shape(t.numpy().shape))  # and its shape
    assert python_results.element_size(three, [], {}) == DimVal(t.element_size())
    assert python_results.is_floating_point(three, [], {}) == Literal(t.is_floating_point())
    assert python_results.is_complex(three, [], {}) == Literal(t.is_complex())
    strides = python_results.stride(TensorVal(Shape((3, 1)), dtype), [], {})
    assert len(strides.items) == len(t.view(3, 1).stride())


def test_bfloat16_has_no_numpy_array_and_a_long_vector_is_no_spelled_out_list(torch):
    with pytest.raises(TypeError):
        torch.ones(2, dtype=torch.bfloat16).numpy()
    assert python_results.numpy(TensorVal(Shape((2,)), "bfloat16"), [], {}) is None
    listed = python_results.tolist(TensorVal(Shape((1000,)), "int64"), [], {})
    assert not isinstance(listed, SeqVal) and listed.length == 1000  # that many ints, not spelled out
    assert len(torch.arange(1000).tolist()) == 1000
    assert python_results.tolist(TensorVal(Shape(()), "int64"), [], {}) == DimVal(None)
