"""GL001 rank mismatch: the index has a different number of dims than the tensor it indexes.

gather/scatter need ``index.dim() == input.dim()`` (a 0-d tensor counts as 1-d), scatter also
``src.dim() == index.dim()``; ``take_along_dim(dim=d)`` needs equal ranks with no 0-d relaxation;
``index_select``/``index_add_``/``index_copy_``/``index_fill_`` need a vector (0-d or 1-d) index.
torch raises ``Index tensor must have the same number of dimensions as input tensor``. ``index_fill_`` writes
one value at every index: its value is a number or a 0-d tensor, and a tensor of values (counters saved to be
restored) raises ``index_fill_ only supports a 0-dimensional value tensor``; ``index_copy_`` writes one per index.

A subscript with more indices than the tensor has dims (``actions[ids, :]`` on an ``[N]`` tensor, from a
helper written for ``[N, A]`` data) raises ``IndexError: too many indices for tensor of dimension 1``. It is
reported where the rank comes from code, an annotation or a shape comment; a docstring's rank is not
enough, since docstrings often describe one call path among several. The same holds for unpacking the
sizes (``b, c, t, h, w = x.shape`` on a 4-d ``x``), where Python raises ``ValueError: not enough values to
unpack``: code written for video handed images fails there first.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation, gather_axis, is_empty, named, size_expr
from ..dims import Shape, dim_text, must_equal, value
from ..ops import GATHER, INDEX, SCATTER, TAKE_ALONG
from ..suggest import method_call, operand
from ._example import Example

CODE = "GL001"
NAME = "rank-mismatch"
SEVERITY = ERROR
FIX = "unsafe"  # adds a dim to the index (and squeezes it off a per-position result): check the code around it
FIX_NOTE = (
    "The fix is offered where the shapes tell which meaning was intended: a per-position pick (the index "
    "matches the input on every dim but `dim`, as in `q_values [B, A].gather(1, actions [B])`) gets "
    "`.unsqueeze(dim)` on the index and `.squeeze(dim)` on the result; a selection of whole rows "
    "(`x [N, D].gather(0, idx [K])`, `x [B, N, D].gather(1, idx [B, K])`) gets `.unsqueeze(-1).expand(..., D)` "
    "(take_along_dim: `.unsqueeze(-1)`), which reads `x[idx]`; a one-hot scatter of a number "
    "(`one_hot [B, C, H, W].scatter_(1, labels [B, H, W], 1)`) gets `.unsqueeze(1)` on the index. Where both "
    "meanings fit the shapes (`x [N, D].gather(0, idx [D])`) or neither does, no fix is offered, nor for "
    "a scatter of a tensor or for index_select-style ops."
)
# the codemods that apply this rule's fix (named, not imported: linting never loads libcst)
FIX_CODEMODS = ("gather_lint.codemods.expression.AppendToExpression",)

EXAMPLES = [
    Example(
        title="per-token log-probs without the trailing index dim",
        bad="""
import torch
log_probs = torch.randn(6, 50).log_softmax(-1)  # [seq_len, vocab]
input_ids = torch.randint(50, (6,))
out = torch.gather(log_probs, dim=1, index=input_ids)
expected = torch.stack([log_probs[t, input_ids[t]] for t in range(6)])
""",
        good="""
import torch
log_probs = torch.randn(6, 50).log_softmax(-1)  # [seq_len, vocab]
input_ids = torch.randint(50, (6,))
out = torch.gather(log_probs, dim=1, index=input_ids.unsqueeze(1)).squeeze(1)
expected = torch.stack([log_probs[t, input_ids[t]] for t in range(6)])
""",
    ),
    Example(
        title="DQN q-values with a 1-d actions tensor",
        bad="""
import torch
q_values = torch.randn(32, 4)  # [B, num_actions]
actions = torch.randint(4, (32,))
out = q_values.gather(1, actions)
expected = torch.stack([q_values[b, actions[b]] for b in range(32)])
""",
        good="""
import torch
q_values = torch.randn(32, 4)  # [B, num_actions]
actions = torch.randint(4, (32,))
out = q_values.gather(1, actions.unsqueeze(1)).squeeze(1)
expected = torch.stack([q_values[b, actions[b]] for b in range(32)])
""",
    ),
]


def _rank(shape) -> Optional[int]:
    return None if shape is None else shape.rank


def check(site: Site) -> Optional[Violation]:
    inp, idx = site.input, site.index
    r_in, r_idx = _rank(inp.shape), _rank(idx.shape)
    family = site.op.family
    if r_idx is None or (is_empty(idx.shape) and family in (GATHER, SCATTER)):
        return None  # gather/scatter skip every check for an empty index; the others do not
    if family == INDEX:
        if r_idx > 1:
            return Violation(
                CODE, SEVERITY,
                f"{site.op.spelled}() needs a 0-d or 1-d index but {named(idx)} is {r_idx}-d; "
                f"torch raises 'Index is supposed to be a vector'; flatten it with `.reshape(-1)` "
                f"or use gather() for per-position indices",
            )
        return _payload_rank(site)
    if r_in is None:
        return None
    if family == TAKE_ALONG:
        if not site.dim_given or r_in == r_idx:
            return None
        return Violation(
            CODE, SEVERITY,
            f"{named(idx)} is {r_idx}-d but {named(inp)} is {r_in}-d; torch raises 'input and indices "
            f"should have the same number of dimensions'; {_rank_fix(site, r_in, r_idx)}",
            **_fix(site, r_in, r_idx),
        )
    if max(r_in, 1) == max(r_idx, 1):
        return _payload_rank(site) if family == SCATTER else None
    role = "self" if family == SCATTER else "input"
    return Violation(
        CODE, SEVERITY,
        f"index {named(idx)} is {r_idx}-d but {role} {named(inp)} is {r_in}-d; torch raises "
        f"'Index tensor must have the same number of dimensions as {role} tensor'; {_rank_fix(site, r_in, r_idx)}",
        **_fix(site, r_in, r_idx),
    )


def _rank_fix(site: Site, r_in: int, r_idx: int) -> str:
    """The fix sentence, from the same reading of the shapes as the automatic fix (never the other one)."""
    fix = _fix(site, r_in, r_idx)
    suffix = fix.get("fix_suffix")
    if suffix is None:
        axis = gather_axis(site)
        if r_idx + 1 == r_in and axis is not None:
            return (f"add the missing dim: `{method_call(site.index.text, f'unsqueeze({axis})')}` picks one entry "
                    f"per position, `{method_call(site.index.text, 'unsqueeze(-1)')}` expanded over the last "
                    f"dim selects whole rows")
        return "make the index's rank match"
    fixed = operand(site.index.text) + suffix
    if fix.get("fix_result_suffix"):
        return f"add the missing dim with `{fixed}`, then `{fix['fix_result_suffix']}` the result"
    if ".expand(" in suffix:
        return f"select whole rows with `{fixed}` (the result is `{site.input.text}[{site.index.text}]`)"
    return f"add the missing dim with `{fixed}`"


def _fix(site: Site, r_in: int, r_idx: int) -> dict:
    """One missing dim, fixed only where the shapes say which of the two usual meanings was meant:

    - per-position pick (`q [B, A].gather(1, actions [B])`): the index matches the input on every
      dim but `dim`: unsqueeze it at `dim`, squeeze the result there (take_along_dim likewise);
    - whole-row selection (`x [N, D].gather(0, idx [K])`, `x [B, N, D].gather(1, idx [B, K])`): the
      index stops at `dim`, the second-to-last: unsqueeze the last dim and expand it over the
      input's last size, giving `x[idx]` rows (take_along_dim broadcasts: unsqueeze alone).
    Both readings possible (`x [N, D].gather(0, idx [D])`), or neither: no fix."""
    axis = gather_axis(site)
    idx = site.index.shape
    if r_idx + 1 != r_in or axis is None or idx is None or idx.variadic or site.op.family not in (GATHER, TAKE_ALONG, SCATTER):
        return {}
    dims = site.input.shape.dims
    others = dims[:axis] + dims[axis + 1:]
    per_position = all(must_equal(a, b) for a, b in zip(idx.dims, others))
    if site.op.family == SCATTER:  # one value per position written at index (one-hot): a number only
        return {"fix_suffix": f".unsqueeze({axis})"} if per_position and site.options.get("number_payload") else {}
    rows = axis == r_in - 2 and all(must_equal(a, b) for a, b in zip(idx.dims[:axis], dims[:axis]))
    if per_position == rows:
        return {}
    if per_position:
        return {"fix_suffix": f".unsqueeze({axis})", "fix_result_suffix": f".squeeze({axis})"}
    if site.op.family == TAKE_ALONG:
        return {"fix_suffix": ".unsqueeze(-1)"}
    return {"fix_suffix": f".unsqueeze(-1).expand({', '.join(['-1'] * r_idx)}, {size_expr(site.input, r_in - 1)})"}


def _payload_rank(site: Site) -> Optional[Violation]:
    """scatter: src must have the index's rank; index_add_/index_copy_: source the input's rank."""
    src = site.payload
    if src is None or src.shape is None or src.shape.variadic:
        return None
    r_src = len(src.shape.dims)
    if site.op.family == SCATTER:
        r_idx = _rank(site.index.shape)
        if r_idx is None or max(r_idx, 1) == max(r_src, 1):
            return None
        return Violation(
            CODE, SEVERITY,
            f"src {named(src)} is {r_src}-d but index {named(site.index)} is {r_idx}-d; torch raises "
            f"{_src_rank_error(src.shape, site.index.shape)}"
            + ("; a 0-d tensor is not the scalar `value` overload: pass a Python number (`.item()`), "
               "which scatter writes at every index" if r_src == 0 else ""),
        )
    if site.op.name == "index_fill":
        idx = site.index.shape
        per_index = r_src == 1 and idx is not None and not idx.variadic and len(idx.dims) == 1 \
            and must_equal(src.shape.dims[0], idx.dims[0]) and value(idx.dims[0]) != 1
        return index_fill_value(named(src), r_src, per_index) if r_src else None
    r_in = _rank(site.input.shape)
    if r_in is None or r_in == r_src or 0 in (r_in, r_src):
        return None  # one side 0-d: index_add_ and index_copy_ disagree there; leave it to torch
    return Violation(
        CODE, SEVERITY,
        f"source {named(src)} is {r_src}-d but self {named(site.input)} is {r_in}-d; "
        f"{site.op.spelled}() raises because source must match self on every dim but `dim`",
    )


def index_fill_value(value_text: str, rank: int, per_index: bool) -> Violation:
    """index_fill_ given a value tensor with dims: it fills every indexed slice with one number (static and runtime)."""
    fix = ("one value per index is `index_copy_` (source shaped like self with the index's length on dim) "
           "or `index_put_`" if per_index else "pass one number (`value.item()`), or a 0-d tensor")
    return Violation(
        CODE, SEVERITY,
        f"value {value_text} is a {rank}-d tensor but index_fill_() fills every indexed slice with one number (a "
        f"float or a 0-d tensor); torch raises 'index_fill_ only supports a 0-dimensional value tensor'; {fix}",
    )


_SAME_RANK = "'Index tensor must have the same number of dimensions as src tensor'"
_SRC_DIM_1 = "'Dimension out of range (expected to be in range of [-1, 0], but got 1)'"


def _src_rank_error(src, index) -> str:
    """A 1-d src under a longer index: torch compares the sizes dim by dim first, so it asks the 1-d src
    for its dim 1 (IndexError) unless the index is already longer on dim 0 (the rank error)."""
    if len(src.dims) != 1 or index.variadic or len(index.dims) < 2:
        return _SAME_RANK
    rows, length = value(index.dims[0]), value(src.dims[0])
    if rows is not None and length is not None:
        return _SAME_RANK if rows > length else _SRC_DIM_1
    return f"{_SRC_DIM_1} (or {_SAME_RANK} when the index is longer on dim 0)"



def check_too_many_indices(tensor_text: str, shape: Shape, subscript_text: str, count: int) -> Violation:
    """A subscript with more index items than the tensor has dims."""
    rank = len(shape.dims)
    return Violation(
        CODE, SEVERITY,
        f"`{subscript_text}` indexes `{tensor_text}` {shape} with {count} indices, but it has {rank} "
        f"dim{'s' if rank != 1 else ''}; torch raises 'too many indices for tensor of dimension {rank}'; "
        f"drop the extra indices (code written for more dims was handed {shape} data)",
    )


def check_unpacked_shape(targets: str, sizes: str, tensor_text: str, shape: Shape, count: int) -> Violation:
    """`a, b, c = x.shape` with more or fewer names than x has dims."""
    rank = len(shape.dims)
    error = f"not enough values to unpack (expected {count}, got {rank})" if count > rank else \
        f"too many values to unpack (expected {count})"
    return Violation(
        CODE, SEVERITY,
        f"`{targets} = {sizes}` unpacks {count} size{'s' if count != 1 else ''}, but `{tensor_text}` {shape} has {rank} "
        f"dim{'s' if rank != 1 else ''}; Python raises 'ValueError: {error}'; use {rank} name"
        f"{'s' if rank != 1 else ''} or a starred one (code written for {count}-d data was handed {shape} data)",
    )


def check_backward_grad(call: str, how: str, output: str, grad: str, added: int) -> Violation:
    """A backward given a gradient made from its own output with dims added (`error.unsqueeze(1)`)."""
    dims = "a dim" if added == 1 else f"{added} dims"
    return Violation(
        CODE, SEVERITY,
        f"{call} passes `{grad}`, made from `{output}` with {dims} added, as the gradient of `{output}`: "
        f"{how} needs a gradient of exactly the output's shape, and torch raises 'Mismatch in shape: "
        f"grad_output[0] has a shape of ... and output[0] has a shape of ...'; pass a gradient of "
        f"`{output}`'s shape (without the added dim)",
    )


def check_gradient_shape(function: str, k: int, output: Shape, grad: Shape) -> Violation:
    """The runtime twin of check_backward_grad: gradient k given to `function` has another shape than its output."""
    out_dims, grad_dims = tuple(output.dims), tuple(grad.dims)
    if len(grad_dims) > len(out_dims) and tuple(n for n in grad_dims if n != 1) == tuple(n for n in out_dims if n != 1):
        added = [i for i, n in enumerate(grad_dims) if n == 1][: len(grad_dims) - len(out_dims)]
        fix = f"drop the added dim (`.squeeze({added[0]})` on the gradient)" if len(added) == 1 else \
            f"drop the added dims (`.view({', '.join(map(str, out_dims))})` on the gradient)"
    else:
        fix = f"pass a gradient of the output's shape {output}"
    which = "the gradient" if k == 0 else f"gradient {k}"
    return Violation(
        CODE, SEVERITY,
        f"{which} given to {function}() is {grad} but its output is {output}: a gradient must have exactly its "
        f"output's shape, so torch raises 'Mismatch in shape'; {fix}",
    )


def check_mask_shape(subscript: str, mask_text: str, mask: Shape, tensor_text: str, shape: Shape, start: int,
                     axis: int) -> Violation:
    """`x[mask]` with a bool mask whose dims are not the dims of x it covers (from `start` on): torch raises."""
    covered = shape.dims[start:start + len(mask.dims)]
    if axis >= len(covered):
        what = f"it has {len(mask.dims)} dims where `{tensor_text}` {shape} has {len(shape.dims) - start} from dim {start} on"
    else:
        what = (f"its dim {axis} has size {dim_text(mask.dims[axis])} where dim {start + axis} of `{tensor_text}` "
                f"{shape} has {dim_text(covered[axis])}")
    fix = f"build the mask with the shape of the dims it selects ({Shape(tuple(covered))})" if axis < len(covered) \
        else "build the mask with the shape of the dims it selects"
    error = "'The shape of the mask ... does not match the shape of the indexed tensor'" if axis < len(covered) \
        else f"'too many indices for tensor of dimension {len(shape.dims)}'"
    return Violation(
        CODE, SEVERITY,
        f"`{subscript}` selects with the bool mask `{mask_text}` {mask}, but {what}; a mask must have the shape of "
        f"the dims it covers, so torch raises IndexError ({error}); {fix}",
        help=fix,
    )
