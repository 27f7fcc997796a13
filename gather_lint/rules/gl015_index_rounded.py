"""GL015 index rounded: integer indices passed through float16 or bfloat16 come back rounded.

float16 represents every integer only up to 2048, bfloat16 only up to 256; an integer type narrower than
the ids (uint8 up to 255, int8 up to 127, int16 up to 32767: a label map kept as uint8) wraps them around. Ids sent through
``.half()``/``.bfloat16()`` (a mixed-precision buffer, an autocast region, a float tensor that
stores them) and back with ``.long()`` are silently rounded: token 3001 becomes 3000 in float16 and
3008 in bfloat16. Reported when the indexed dim is larger than the exact range. When the range's top
rounds to the dim's size or past it (timesteps in [0, 1000) through bfloat16 reach 1000), torch raises
instead, and GL011 reports it.
"""
from typing import Optional

from ..contract import WARNING, Site, Violation, gather_axis, named
from ..dims import dim_text, value
from . import gl011_index_out_of_range as out_of_range
from ._example import Example

CODE = "GL015"
NAME = "index-rounded"
SEVERITY = WARNING
FIX = "unsafe"  # the cast becomes float64 (exact up to 2**53), a bigger buffer: gather_lint.rules.gl015_fix
FIX_NOTE = (
    'The fix turns the rounding cast where it was made into a float64 one (`.half()` -> `.double()`, '
    '`.to(torch.bfloat16)` -> `.to(torch.float64)`), exact for every index; other spellings are not '
    'rewritten.'
)
# the codemods that apply this rule's fix (named, not imported: linting never loads libcst)
FIX_CODEMODS = ("gather_lint.rules.gl015_fix.ExactCast",)
RUNTIME = False  # the round trip happened before the call

EXAMPLES = [
    Example(
        title="token ids stored in a half-precision buffer",
        bad="""
import torch
table = torch.randn(5000, 8)  # [V, D]
ids = torch.tensor([[3001], [4097]])
buffered = ids.half()
out = table.gather(0, buffered.long().expand(-1, 8))
expected = table[ids[:, 0]]
""",
        good="""
import torch
table = torch.randn(5000, 8)  # [V, D]
ids = torch.tensor([[3001], [4097]])
buffered = ids.clone()
out = table.gather(0, buffered.long().expand(-1, 8))
expected = table[ids[:, 0]]
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    domain = site.index.domain
    if domain is None or domain.rounded is None or site.index.dtype not in ("int64", "int32"):
        return None
    axis = gather_axis(site)
    if axis is None or out_of_range.rounded_past(site) is not None:
        return None  # the rounded top is past the dim: torch raises, GL011 says so
    return _rounded(f"index {named(site.index)}", domain, f"dim={site.dim} of {named(site.input)}",
                    site.input.shape.dims[axis], "entries", "indices", "read the wrong entries")


def check_lookup(ids_text: str, domain, what: str, rows) -> Optional[Violation]:
    """An embedding lookup (or a table read) of ids that went through a low-precision float, into more rows
    than that float holds integers exactly: ids past the limit read a neighbour's row."""
    if domain is None or domain.rounded is None:
        return None
    return _rounded(f"`{ids_text}`", domain, what, rows, "rows", "ids", "look up a neighbour's row")


def _rounded(index: str, domain, target: str, size, entries: str, kind: str, effect: str) -> Optional[Violation]:
    """`index` went through the float of `domain.rounded` into `target` of `size` entries, more than that float
    holds integers exactly: the larger ones come back rounded."""
    dtype, limit, where = domain.rounded
    if value(size) is None or value(size) - 1 <= limit:
        return None  # the largest of `size` positions, size - 1, survives
    narrowed = dtype.startswith(("int", "uint"))  # an integer type wraps around; a float rounds
    return Violation(
        CODE, SEVERITY,
        f"{index} went through {dtype} ({where}), which holds integers exactly only up to {limit}, but {target} "
        f"has {dim_text(size)} {entries}: larger {kind} come back {'wrapped around' if narrowed else 'rounded'} and "
        f"{effect}, silently; keep {kind} in {'an int64' if narrowed else 'an integer'} tensor",
        fix_cause=("exact_cast", domain.rounded_at) if domain.rounded_at is not None else None,
    )
