"""GL013 overwriting accumulate: `x[ids] += v` with indices that can repeat adds once per distinct index.

Indexed in-place addition is ``x.index_put_((ids,), x[ids] + v)`` without accumulation: for a
repeated index every write computes from the same old value and the last one wins, silently
(nondeterministically on CUDA). Token ids, class labels, segment ids, ``randint`` draws and per-row picks
(``argmax(dim)``, ``max(dim).indices``; ``topk``/``sort`` indices once their rows are joined by ``.view(-1)``)
repeat; ``arange`` and ``randperm`` indices, and one row's ``topk``/``argsort`` picks, do not. Counting tokens with
``counts[ids] += 1`` counts each distinct id once. The same holds for every read-modify-write that
writes without accumulating: ``x[ids] = x[ids] + v``, ``x.scatter_(d, ids, x.gather(d, ids) + v)``,
``x.index_copy_(d, ids, x.index_select(d, ids) + v)``; ``scatter_add_``/``index_add_`` accumulate.
The node ids of an edge list (``row, col = edge_index``; ``deg[col] += w``) repeat once per edge of a
node, and ``x[rows, ids] -= v`` with ``rows`` an arange broadcast over each row repeats where ``ids``
(compared with a pad or eos id: token ids) repeats within a row.

A loop over groups that writes each group's rows into one buffer (``out[mask] = v`` or
``out.masked_scatter_(mask, v)`` inside ``for e in ...``) loses data the same way when the mask is a
membership over several slots, ``(topk_idx == e).any(-1)``: a row routed to two experts keeps only the
last expert's output where the two were meant to add up.

Filling a fresh buffer (zeros, or a constant such as a range image's -1) entry by entry has the same
flaw: ``grid[rows, cols] = v``,
``grid.index_put_((rows, cols), v)``, ``zeros.scatter(d, ids, src)`` and ``zeros.index_copy_(d, ids, src)``
keep one value per repeated position (which one is unspecified), as do ``grid[:, cells] = v`` (whole axes around
the index, columns colliding as rows do) and ``frame.put_(ys * W + xs, v)`` (flat positions; at run time checked
on the flattened tensor). The rule reports them when every
index component can repeat and at least one was computed so: coordinates rounded from floats
(``(xy / cell).long()``, ``torch.floor(p).long()``), floor-division quotients, ``argmax`` picks,
``randint`` draws, or a batch of id sequences scattered along the sequence; a component from
``arange``, a number or ones as the value (a presence mask), a 0/1 mask written at the ids it masks
(``mask.scatter(1, input_ids, attention_mask)``: an id gets two values only where it is both kept and masked),
values known entry by entry to agree at every repeated position, or values read at the same positions keep it
silent. A flat batch's group ids (``batch_idx``: the sample of each point) tell the samples apart,
not the points of one sample, so ``bev.index_put_((batch_idx, iy, ix), v)`` repeats wherever two points of one
sample round to one cell; the neighbour pairs of one sequence (``counts[tokens[:-1], tokens[1:]] += 1``)
repeat as its bigrams do, as do tensors made of the items of one id sequence (``M[centers, contexts] += 1`` with
both lists appended from ``doc_ids`` in a co-occurrence window). An index with more entries along the written dim than the buffer has positions there
(known sizes) repeats positions for certain, whatever made it; a ``scatter_`` or ``index_copy_`` of such an index is
reported into any buffer, fresh or not (``last = self.last_update.clone(); last.scatter_(0,
torch.cat([src, dst]), torch.cat([t, t]))`` keeps an arbitrary event's time per node, not the latest).

A hand-written backward of a lookup (a ``torch.autograd.Function`` whose forward gathers, selects or
embeds with an index it saves by ``ctx.save_for_backward``) must add the gradients of a position read
several times; writing them with ``scatter_``, ``index_copy_``, ``index_put_`` or ``grad[ids] = g``
into a zeros buffer keeps one of them (static/autograd_backward.py).

Counting with ``counts.scatter_(0, ids, torch.ones_like(ids))`` (or ``scatter_(0, ids, 1)``) into a
zeros buffer caps every count at 1. Ones also mark presence (a one-hot, a mask), so that form is
reported only when the buffer's name says it counts (``counts``, ``hist``, ``freq``, ``num_...``).
"""
import ast
from typing import Optional

from ..contract import WARNING, Site, Violation
from ..suggest import method_call, negated
from ._example import Example

CODE = "GL013"
NAME = "overwriting-accumulate"
SEVERITY = WARNING
FIX = "unsafe"  # accumulating changes the result (to the intended one): gather_lint.rules.gl013_fix
FIX_NOTE = (
    'The fix rewrites the statement into `x.index_put_((ids,), v, accumulate=True)` (a number becomes '
    '`x.new_tensor(v)`, a tensor `v.to(x.dtype)`); it is offered only for one index expression, a '
    'name or attribute as `x`, and an increment that is a number or a known tensor. '
    '`x.scatter_(d, ids, x.gather(d, ids) + v)` becomes `x.scatter_add_(d, ids, v)` and the index_copy_ '
    'form `x.index_add_(d, ids, v)`, only where v is a tensor of the read\'s shape and dtype. '
    'Buffers filled by `x[i, j] = v`, index_put_, scatter or index_copy_ are not rewritten: the message '
    'names the accumulating op, and whether a sum, a max or a mean was meant is the author\'s call.'
)
# the codemods that apply this rule's fix (named, not imported: linting never loads libcst)
FIX_CODEMODS = ("gather_lint.rules.gl013_fix.AccumulateIndexPut",)
RUNTIME = True  # checked on real values by the runtime mode too (see gather_lint/runtime/)

EXAMPLES = [
    Example(
        title="counting token occurrences",
        bad="""
import torch
input_ids = torch.tensor([3, 1, 3, 3, 0])
counts = torch.zeros(5)
counts[input_ids] += 1
out = counts
expected = torch.bincount(input_ids, minlength=5).float()
""",
        good="""
import torch
input_ids = torch.tensor([3, 1, 3, 3, 0])
counts = torch.zeros(5)
counts.index_put_((input_ids,), torch.ones(5), accumulate=True)
out = counts
expected = torch.bincount(input_ids, minlength=5).float()
""",
    ),
]


EXAMPLES.append(Example(
    title="a distribution on the vocabulary scattered from a batch of token sequences",
    bad="""
import torch
doc_tokens = torch.randint(0, 6, (2, 10))
attn = torch.softmax(torch.randn(2, 10), dim=-1)
out = torch.zeros(2, 6).scatter(1, doc_tokens, attn)
expected = torch.stack([torch.bincount(doc_tokens[b], attn[b], minlength=6) for b in range(2)])
""",
    good="""
import torch
doc_tokens = torch.randint(0, 6, (2, 10))
attn = torch.softmax(torch.randn(2, 10), dim=-1)
out = torch.zeros(2, 6).scatter_add(1, doc_tokens, attn)
expected = torch.stack([torch.bincount(doc_tokens[b], attn[b], minlength=6) for b in range(2)])
""",
))


def check(site: Site) -> Optional[Violation]:
    return None  # a dataflow rule: see check_augmented


def check_augmented(target: str, index: str, origin: str, op: str, value: str, fixable: bool = False) -> Violation:
    """`fixable`: the increment is a number literal or a known tensor, which gl013_fix can convert."""
    increment = value if op == "+=" else negated(value)
    sliced = _sliced_key(index)
    if sliced is not None:  # `x[:, ids] += v`: index_put_ takes no slices; index_add_ along the ids' dim does
        dim, ids = sliced
        held = f"the index holds {origin}"
        source = f"torch.zeros_like({target}[{index}]) + {increment}" if dim is not None else None
        fix = f"`{method_call(target, f'index_add_({dim}, {ids}, {source})')}`" if source else \
            "`index_add_` along the indexed dim, or `index_put_` with `accumulate=True` and a tensor for every dim"
    else:
        positions = index_tuple(index)
        held = f"the index holds {origin}" if positions.endswith(",)") else f"the indices hold {origin}"
        adder = " (or index_add_)" if positions.endswith(",)") else ""
        values = method_call(target, f"new_tensor({increment})") if _number(increment) else increment  # a tensor
        fix = f"`{method_call(target, f'index_put_({positions}, {values}, accumulate=True)')}`{adder}"
    return Violation(
        CODE, SEVERITY,
        f"`{target}[{index}] {op} ...`: {held}, which can repeat, and indexed in-place "
        f"arithmetic applies a repeated index once (the last write wins), silently; accumulate with {fix}",
        fix_statement="accumulate" if fixable and sliced is None else None,
    )


def _number(text: str) -> bool:
    """A number literal (`1`, `-0.5`): index_put_ takes values as a tensor only."""
    try:
        return type(ast.literal_eval(text)) in (int, float)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def _sliced_key(index: str) -> Optional[tuple]:
    """For a key with slices: (dim, ids text) when it is full slices `:` and one other item (the ids), (None,
    None) for any other sliced key; None for a key without slices (index_put_ spells it)."""
    try:
        key = ast.parse(f"_[{index}]", mode="eval").body.slice
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    items = key.elts if isinstance(key, ast.Tuple) else [key]
    ellipsis = any(isinstance(item, ast.Constant) and item.value is Ellipsis for item in items)
    if not ellipsis and not any(isinstance(item, ast.Slice) for item in items):
        return None
    full = [isinstance(item, ast.Slice) and item.lower is None and item.upper is None and item.step is None
            for item in items]
    others = [k for k, is_full in enumerate(full) if not is_full]
    if len(others) != 1 or isinstance(items[others[0]], ast.Slice) or ellipsis:
        return None, None
    return others[0], ast.unparse(items[others[0]])


def index_tuple(index: str) -> str:
    """The index_put_ tuple for a subscript's text: `(ids,)` for `ids`, `(rows, cols)` for `rows, cols`."""
    text = index.strip()
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return f"({text},)"
    if isinstance(node, ast.Tuple) and not text.startswith("("):
        return f"({text})"
    return f"({text},)"


def check_overwriting_write(write: str, positions: str, origin: str, written: str, fix: str) -> Violation:
    """A write without accumulation (`x[i, j] = v`, index_put_, scatter, index_copy_) into a buffer
    that is being filled, with positions that can repeat: all but one of the repeated writes are lost."""
    return Violation(
        CODE, SEVERITY,
        f"`{write}` writes {written} to the positions {positions}, which "
        f"{f'hold {origin} and ' if origin else ''}can repeat: "
        f"where they do, torch keeps one write per position (which one is unspecified) and drops the "
        f"others, silently; {fix}",
    )


def check_backward_overwrite(write: str, positions: str, lookup: str, line: int, fix: str) -> Violation:
    """A custom autograd Function's backward writes the gradient without accumulating at the positions the
    forward's lookup read (its saved index): a position read k times gets one of its k gradients."""
    return Violation(
        CODE, SEVERITY,
        f"`{write}` writes the gradient at `{positions}`, made from the index the forward's lookup "
        f"`{lookup}` (line {line}) read with and saved for backward: a lookup can read one position several "
        f"times and that position's gradient is the sum over its reads, but this write keeps one value per "
        f"repeated position (which one is unspecified), silently; accumulate with `{fix}`",
    )


def check_counting_ones(write: str, positions: str, origin: str, fix: str) -> Violation:
    """Ones scattered into a zeros count buffer: every repeated position holds 1, not its number of hits."""
    return Violation(
        CODE, SEVERITY,
        f"`{write}` writes 1 to the positions {positions}, which {f'hold {origin}' if origin else 'can repeat'}: "
        f"a position hit k times holds 1, "
        f"not k, so the counts are capped at 1, silently; count with `{fix}` (or torch.bincount)",
    )


def check_read_modify_write(write: str, index: str, origin: str, fix: str, fixable: bool = False) -> Violation:
    """`fixable`: `x[i] = x[i] + v` with v a number literal or a known tensor (gl013_fix rewrites it)."""
    return Violation(
        CODE, SEVERITY,
        f"`{write}` writes values computed from the same positions it overwrites, and the index `{index}` holds "
        f"{origin}, which can repeat: a repeated index is written once (the last write wins), silently; "
        f"accumulate with {fix}",
        fix_statement="accumulate" if fixable else None,
    )


def check_undefined_write(write: str, where: str, fix: str) -> Violation:
    """Runtime: a write without accumulating (`x[i] = v`, index_put_, index_copy_, scatter) that gives one
    position two or more different values in one call: torch documents the result as undefined."""
    return Violation(
        CODE, SEVERITY,
        f"`{write}` writes different values to one position ({where}) without accumulating: only one of them "
        f"survives, and which one is unspecified (it can change from run to run on CUDA), silently; add them with "
        f"{fix}, or dedupe the index first if one write per position was meant",
    )


def check_group_overwrite(write: str, mask: str, group: str, fix: str) -> Violation:
    """A loop over groups writing each group's rows into one buffer, with rows in several groups."""
    return Violation(
        CODE, SEVERITY,
        f"`{write}` in a loop over groups writes the rows of `{mask}`, made by `{group}`: a row in several "
        f"groups (the `.any()` over its slots says it can be) is written once per group and keeps only the "
        f"last group's value, silently; add the groups' values instead: {fix}",
    )
