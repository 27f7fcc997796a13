"""GL011 index out of range: index values outside the valid range of the indexed dim.

Valid values are ``[0, size)`` for gather/scatter/index_select/index_add_/index_copy_/embedding
(``[-size, size)`` for index_fill_). On CPU torch raises ``index 41 is out of bounds for dimension 1
with size 5``, after in-place ops have already written part of their output; on CUDA a device-side
assert kills the CUDA context, reported at a later, unrelated call. Padding ids (``-100``, ``-1``)
are the usual cause, or ids meant for another dim. Values are only known when the code runs, so
the runtime mode checks them all; statically, only values the code certainly makes out of range
are reported: a negative padding value put into the index and not masked, or values made for a
larger size than the dim they index. Advanced indexing `table[idx]` is checked for the latter too:
`x[x > n] = n` (a clamp to n) before a table of n rows reads row n, one past the end.

Embedding lookups (``nn.Embedding``, ``F.embedding``) raise ``index out of range in self`` for the same
reasons, and for a few of their own that a script's driver makes certain: tokens added to the
tokenizer after the embedding was sized from it (``add_tokens`` / ``add_special_tokens`` without
``resize_token_embeddings``), positions ``torch.arange(L)`` for a longer sequence than the position
table (a document the script writes out and tokenizes without truncating it), an id equal to the table's size (``torch.full(..., vocab_size)``, an eos id appended with
``torch.cat`` or ``F.pad``, token type ids of ones for a single-type table, a literal id). Class
targets of ``cross_entropy`` / ``nll_loss`` made for more classes than the input has raise
``Target 5 is out of bounds.``, and so does a negative padding value put among them that is not the loss's
``ignore_index`` (``-100`` unless given): targets padded with ``new_full(..., -1)`` raise ``Target -1 is out of
bounds.`` unless the call passes ``ignore_index=-1``; ids read out of an id table keep the size they were made for.
A size taken from the ids' own largest value without the ``+ 1`` (``F.one_hot(y, int(y.max()))``,
``torch.zeros(n, y.max().item()).scatter_(1, y[:, None], 1)``) is one slot short for the largest id.
An input with one class along dim 1 (a single-logit head, ``nn.Linear(d, 1)``, trained with
cross-entropy) is reported whatever its targets: a target of 1 raises ``Target 1 is out of bounds.``, and targets of 0
give a loss of exactly 0.
Values that reach a size N are followed to the table they index: fractions that include 1 scaled by N and
made integer (``((1 - torch.rand(B) ** 3) * N).long()``, ``torch.linspace(0, N, S).long()``, a ``.round()`` of
``torch.rand(B) * N``), draws shifted up (``1 + torch.randint(N, size)``, ``torch.randint(1, N + 1, size)``),
running counts of a mask (``ids.ne(pad).int().cumsum(1) + pad``, RoBERTa-style positions past
``max_position_embeddings``), positions shifted into more blocks than the indexed dim has
(``torch.cat([idx, idx + K, idx + 2 * K], dim=1)``), ``nonzero()`` coordinates flattened with a stride other than
the rows per item (``b * batch_size + i``), and ids written in the script (a row of a literal edge list, also one built as a list of known ints such as
``[[1, 2, 3] for _ in range(4)]``)
against a table sized by their count (``len(set(ids))``), or a column of a table written out in the code
(``boxes[:, 0]`` of ``[[class_id, x1, y1, x2, y2], ...]``), whose ids numbered from 1 reach ``num_classes``.
An ``argmax``/``argmin`` without a dim picks one position of the whole flattened tensor (of a ``[B, A]``
tensor a value in ``[0, B*A)``): used as a column of each row (``q[torch.arange(B), probs.argmax()]``) it
reaches past the ``A`` columns; the pick wanted ``dim=-1``.
Floats bounded by the code's own numbers are followed the same way: points kept by an inclusive range filter
(``pc[(pc[:, 0] >= x_min) & (pc[:, 0] <= x_max)]``) or values clamped to ``[0, 1]``, shifted, scaled to cells and made
integer, reach the cell count itself (a point on the far edge, ``((x_max - x_min) / cell).long()``), one past the grid,
and so does a flat index ``x * W + y`` of such coordinates.
An integer range sent through bfloat16 or float16 and back rounds its top to a number the format has:
timesteps ``torch.randint(0, 1000, (B,)).to(torch.bfloat16)`` reach 1000 (999 rounds up), one past a
1000-entry schedule. Ids a generation loop samples from the model's output and appends to the ids it feeds
back (``idx = torch.cat((idx, torch.multinomial(probs, 1)), dim=1)``) hold positions of the output's width: a
head wider than the vocabulary (the embedding width read as logits) looks up ids past the token table.
Padding picked per row
(``log_probs[torch.arange(n), labels]`` with -100 among the labels) raises below ``-size``.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation, gather_axis, named, padding_source
from ..dims import Sym, dim_text, must_equal, must_exceed, value
from ..float_formats import top_after_rounding
from ..ops import TAKE_ALONG
from . import gl004_index_from_wrong_dim as wrong_dim
from ._example import Example

CODE = "GL011"
NAME = "index-out-of-range"
SEVERITY = ERROR
FIX = None

EXAMPLES = [
    Example(
        title="-100 padding labels gathered without a mask",
        bad="""
import torch
log_probs = torch.randn(2, 4, 10).log_softmax(-1)  # [B, L, V]
labels = torch.tensor([[1, 2, 3, -100], [4, 5, -100, -100]])
out = log_probs.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
mask = labels != -100
expected = torch.where(mask, log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1), 0.0)
""",
        good="""
import torch
log_probs = torch.randn(2, 4, 10).log_softmax(-1)  # [B, L, V]
labels = torch.tensor([[1, 2, 3, -100], [4, 5, -100, -100]])
mask = labels != -100
out = torch.where(mask, log_probs.gather(-1, labels.masked_fill(~mask, 0).unsqueeze(-1)).squeeze(-1), 0.0)
expected = torch.where(mask, log_probs.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1), 0.0)
""",
    ),
    Example(
        title="positions kept by an inclusive range filter binned into cells: the far edge is one past the grid",
        bad="""
import torch
x_min, x_max, n_cells = -4.0, 4.0, 8
xs = torch.tensor([-3.5, 0.2, 4.0, 1.9, -6.0])
kept = xs[(xs >= x_min) & (xs <= x_max)]
cells = ((kept - x_min) / ((x_max - x_min) / n_cells)).long()
out = torch.zeros(n_cells).index_add_(0, cells, torch.ones(kept.size(0)))
expected = torch.tensor([1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0])
""",
        good="""
import torch
x_min, x_max, n_cells = -4.0, 4.0, 8
xs = torch.tensor([-3.5, 0.2, 4.0, 1.9, -6.0])
kept = xs[(xs >= x_min) & (xs < x_max)]
cells = ((kept - x_min) / ((x_max - x_min) / n_cells)).long()
out = torch.zeros(n_cells).index_add_(0, cells, torch.ones(kept.size(0)))
expected = torch.tensor([float(sum(1 for v in xs.tolist() if x_min <= v < x_max and int(v - x_min) == c))
                         for c in range(n_cells)])
""",
    ),
]


def raised_words(site: Site, bad) -> str:
    """What torch says on CPU for the value `bad` out of range at this site, quoted (torch-semantics.md, S10):
    index_select words it by the dim it selects along, index_copy_ names itself, the others name the value."""
    known = gather_axis(site)
    axis = site.dim if known is None and site.dim is not None and site.dim >= 0 else known  # counted from the front
    size = value(site.input.shape.dims[known]) if known is not None else None
    if site.op.name == "index_select":
        if axis == 1:
            return f"'INDICES element is out of DATA bounds, id={bad}" + (f" axis_dim={size}'" if size is not None else "'")
        if axis is not None:
            return "'index out of range in self'"
        return f"'index out of range in self' (along dim 1: 'INDICES element is out of DATA bounds, id={bad}')"
    where = f" for dimension {axis} with size {size}" if size is not None else ""
    prefix = "index_copy_(): " if site.op.name == "index_copy" else ""
    return f"'{prefix}index {bad} is out of bounds{where}'"


def check(site: Site) -> Optional[Violation]:
    """Statically: a negative padding value the code put in, or values made for a larger size.
    At run time the values themselves are checked (gather_lint.runtime.checker)."""
    domain = site.index.domain
    if domain is None or site.op.family == TAKE_ALONG:
        return None  # take_along_dim wraps (GL010)
    if domain.sentinel is not None and domain.sentinel < 0 and site.op.name != "index_fill":  # it takes [-n, n)
        where = padding_source(domain)
        return Violation(
            CODE, SEVERITY,
            f"index {named(site.index)} can hold the padding value {domain.sentinel}{where} and nothing masks it "
            f"before {site.op.spelled}(); torch raises {raised_words(site, domain.sentinel)} on CPU, a "
            f"device-side assert on CUDA; {padding_advice(site.op.name)}",
            help=padding_advice(site.op.name),
        )
    axis = gather_axis(site)
    rounded = rounded_past(site)
    if rounded is not None:
        return rounded
    if axis is None or domain.size is None or (domain.category and not domain.bound_only):
        return None  # ids' vocabulary is GL004's to compare; a literal's written top is a value all the same
    here = site.input.shape.dims[axis]
    # values made for another dim of that size are GL004's; 0/1 values are no dim's positions. A literal bound
    # equal by value to a named dim (`randint(0, 8)` beside a `patch` of 8) is that dim's by chance, unless
    # GL004 says otherwise: the values reach past this dim all the same
    # (values written out, `bound_only`, are no positions of any dim: their largest is there, whatever dim of
    # the input shares its size)
    made_for_other = not domain.bound_only and any(
        must_equal(d, domain.size) and not (isinstance(domain.size, int) and isinstance(d, Sym)) for d in site.input.shape.dims)
    if must_exceed(domain.size, here) and (domain.binary or not made_for_other and wrong_dim.check(site) is None):
        return Violation(
            CODE, SEVERITY,
            f"the index holds {domain.origin}, but dim={site.dim} of {named(site.input)} has size {_sized(here)}; "
            f"values from {dim_text(here)} up are out of range: torch raises on CPU, a device-side assert on CUDA; "
            f"make the values with the table's size",
        )
    return None


def rounded_past(site: Site) -> Optional[Violation]:
    """Values whose top a bfloat16/float16 round trip lifts to the gathered dim's size or past it."""
    domain = site.index.domain
    axis = gather_axis(site)
    top = top_after_rounding(domain)
    size = value(site.input.shape.dims[axis]) if top is not None and axis is not None else None
    if size is None or top < size:
        return None
    dtype, _, how = domain.rounded
    return Violation(
        CODE, SEVERITY,
        f"index {named(site.index)} holds {domain.origin} passed through {dtype} ({how}): "
        f"{value(domain.size) - 1} is not a {dtype} number and rounds to {top}, but dim={site.dim} of "
        f"{named(site.input)} has {size} entries; torch raises {raised_words(site, top)} on CPU, a "
        f"device-side assert on CUDA; keep the indices in an integer tensor",
    )


# writes that add into what is there: a padded entry sent to 0 is harmless when its value is zeroed
_ACCUMULATING = {"scatter_add", "index_add"}
# writes that replace or reduce what is there: a padded entry sent to 0 overwrites position 0's real value,
# or takes part in its reduction (a zeroed value is still a value to amax, prod and mean)
_OVERWRITING = {"scatter", "scatter_reduce", "index_copy", "index_put", "__setitem__", "put"}


def padding_advice(op: str) -> str:
    """What to do with padding ids before `op`. A read may clamp them to 0 and mask what it read; a write
    may not: clamped padding writes onto position 0 and collides with the real writes there."""
    name = op.rstrip("_") if not op.startswith("__") else op
    if name in _ACCUMULATING:
        return ("redirect padding to a spare slot (a buffer one entry longer along the dim, cut off after the "
                "write) or zero the values written at padding (`src.masked_fill(pad, 0)`) before replacing its ids "
                "(`.clamp(min=0)` alone adds the padded values into position 0)")
    if name in _OVERWRITING:
        return ("redirect padding to a spare slot (a buffer one entry longer along the dim, cut off after the "
                "write) or drop the padded entries (`.clamp(min=0)` writes the padded values onto position 0, over "
                "its real value or into its reduction)")
    return "replace padding first, e.g. `.masked_fill(mask, 0)` or `.clamp(min=0)`, and mask the result"


def padding_lookup(text: str, domain, what: str) -> Violation:
    where = padding_source(domain)
    return Violation(
        CODE, SEVERITY,
        f"`{text}` can hold the padding value {domain.sentinel}{where} and nothing masks it before {what}; "
        f"negative ids raise ('Class values must be non-negative' / 'index out of range in self'), a device-side "
        f"assert on CUDA; replace padding first, e.g. `.masked_fill(mask, 0)`",
    )


def message(op: str, low: int, high: int, size: int, dim: int, first: str, hint: str, lower: int = 0) -> str:
    """`lower`: -size where torch counts negative indices from the end (index_fill, x[idx]). Padding advice
    only where a value lies below the valid range (-1, -100); values too large but none too small were
    made for a larger dim: the hint names the one other dim they fit, when there is one."""
    said = (f"index values span [{low}, {high}] but dim={dim} of the input has size {size} (valid: "
            f"[{lower}, {size - 1}]){first}; torch raises 'index out of bounds' on CPU, a device-side assert on CUDA")
    if low >= lower:
        return said + (hint or f"; no value is below {lower}, so this is no padding: the values were made for a larger "
                                f"size than {size}; bound them by it, or index the dim they were made for")
    return f"{said}{hint}; " + (f"mask or clamp padding ids before {op}()" if _reads(op) else padding_advice(op))


def _reads(op: str) -> bool:
    name = op.rstrip("_") if not op.startswith("__") else op
    return name not in _ACCUMULATING and name not in _OVERWRITING


def subscript_message(text: str, shape, axis: int, index_text: str, domain) -> Violation:
    """`table[idx]` with values made for a larger size than the table's dim."""
    here = shape.dims[axis]
    bad, last = _first_bad(here)
    advice = ("give the pick the dim to pick along (`argmax(dim=-1)`), one position per row"
              if "(no dim given" in domain.origin else "bound the values by the table's size (`- 1`) or enlarge the table")
    return Violation(
        CODE, SEVERITY,
        f"`{index_text}` holds {domain.origin}, but dim {axis} of `{text}` {shape} has size {_sized(here)}, valid "
        f"positions 0 to {last}; torch raises 'index {bad} is out of bounds' "
        f"on CPU, a device-side assert on CUDA; {advice}",
    )


def padding_subscript_message(text: str, shape, axis: int, index_text: str, domain) -> Violation:
    """`x[rows, idx]` with a padding value below -size among idx: advanced indexing raises, it cannot wrap."""
    where = padding_source(domain)
    here = shape.dims[axis]
    return Violation(
        CODE, SEVERITY,
        f"`{index_text}` can hold the padding value {domain.sentinel}{where} and nothing masks it, but dim {axis} of "
        f"`{text}` {shape} has size {_sized(here)}; torch raises 'index {domain.sentinel} is out of bounds for "
        f"dimension {axis} with size {value(here)}' on CPU, a device-side assert on CUDA; drop the padded entries "
        f"first (`keep = {index_text} != {domain.sentinel}`) or replace them and mask the result",
    )


def lookup_message(text: str, domain, rows, what: str) -> Violation:
    """An embedding lookup / one_hot with values made for more rows or classes than it has."""
    bad, last = _first_bad(rows)
    return Violation(
        CODE, SEVERITY,
        f"`{text}` holds {domain.origin}, but {what} has {_sized(rows)} rows (valid ids 0 to "
        f"{last}); id {bad} raises 'index out of range in self' on CPU, "
        f"a device-side assert on CUDA; bound the ids by the table's size (`- 1`) or enlarge the table",
    )


def _first_bad(d):
    """The first index past a size (its value, else its name) and the last valid one, as text."""
    size = value(d)
    return (size, size - 1) if size is not None else (dim_text(d), f"{dim_text(d)} - 1")


def _sized(d) -> str:
    """`V = 50` for a named size whose value is known, else the name or number."""
    return dim_text(d) if isinstance(d, int) or value(d) is None else f"{dim_text(d)} = {value(d)}"


def table_slice_message(text: str, table: str, shape, axis: int, end_text: str, end: int, rows: int) -> Violation:
    """A module's table sliced to an input's length past the table's own (`self.pe[:, :x.size(1)]`)."""
    return Violation(
        CODE, ERROR,
        f"`{text}` slices dim {axis} of `{table}` {shape} up to `{end_text}` = {end}, past its {rows} "
        f"positions: a slice stops at the end without a word, so it gives {rows} rows where the input has "
        f"{end}, and adding or concatenating them raises on the size mismatch ({end} against {rows}); build the table with at least {end} positions or truncate the input to {rows}",
    )
