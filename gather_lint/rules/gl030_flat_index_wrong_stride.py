"""GL030 flat index with the wrong stride: `rows * H + cols` for coordinates of an [H, W] tensor.

A tensor ``[H, W]`` flattened row-major (``x.view(-1)``, ``x.flatten()``, ``x.reshape(H * W)``) holds entry
``(i, j)`` at ``i * W + j``: the stride of the row coordinate is the row's length, the size of the dim the
column coordinate runs along. ``i * H + j``, with H the size of the rows' own dim, is no flat position of
``[H, W]`` unless H == W: on a taller than wide tensor the last rows reach past ``H * W`` (torch raises, or a
device-side assert on CUDA), and on a wider one entries of different rows land on one position and others on
none, silently. Reported where coordinates along two neighbouring dims (the last being the tensor's last dim)
of one tensor (``torch.where(mask)``, ``mask.nonzero(as_tuple=True)``, the columns of ``mask.nonzero()``) are
combined as ``rows * stride + cols`` with a stride that is, by the code, the size of the rows' dim and not of
the columns' dim. Write the stride as the columns' size (``rows * W + cols``), or let torch compute the
positions: ``torch.where(mask.flatten())[0]``, or ``x[rows, cols]`` without flattening.

Also reported where row numbers (``torch.arange(R)``, copied by ``repeat_interleave`` or ``[:, None]``) times a
stride plus positions of a dim of size C (a top-k, sort, argmax or multinomial draw over the rows of an ``[R, C]``
tensor, an ``arange(C)``) index R * C entries, the grid flattened, with a stride other than C: a sampled token's
probability read from ``probs.view(-1)`` at ``samples + arange(B) * B``, detections of later images read with
``max_per_img`` as the stride of ``num_queries`` rows.
"""
from typing import Optional

from ..contract import ERROR, Site, Violation
from ..dims import dim_text, must_differ, value
from ._example import Example

CODE = "GL030"
NAME = "flat-index-wrong-stride"
SEVERITY = ERROR
FIX = None  # the size the stride should be is named in the message; the code may not hold it in a variable
RUNTIME = False  # coordinates and their arithmetic are not family calls

EXAMPLES = [
    Example(
        title="the distance to the background written back at flat positions of a tall image",
        bad="""
import torch
mask = torch.zeros(6, 4, dtype=torch.long)  # [H, W]
mask[1:5, 1:3] = 1
h, w = mask.shape
rows, cols = torch.where(mask == 1)
flat = torch.zeros(h * w)
flat.index_put_((rows * h + cols,), torch.ones(len(rows)))
out = flat.view(h, w)
expected = mask.float()
""",
        good="""
import torch
mask = torch.zeros(6, 4, dtype=torch.long)  # [H, W]
mask[1:5, 1:3] = 1
h, w = mask.shape
rows, cols = torch.where(mask == 1)
flat = torch.zeros(h * w)
flat.index_put_((rows * w + cols,), torch.ones(len(rows)))
out = flat.view(h, w)
expected = mask.float()
""",
    ),
    Example(
        title="each sampled token's probability read from the flattened [batch, vocab] table",
        bad="""
import torch
batch_size, vocab = 4, 50
probs = torch.rand(batch_size, vocab).softmax(-1)
samples = torch.multinomial(probs, num_samples=1).squeeze(1)
offset = torch.arange(batch_size) * batch_size
out = probs.view(-1).index_select(0, samples + offset)
expected = torch.stack([probs[b, samples[b]] for b in range(batch_size)])
""",
        good="""
import torch
batch_size, vocab = 4, 50
probs = torch.rand(batch_size, vocab).softmax(-1)
samples = torch.multinomial(probs, num_samples=1).squeeze(1)
offset = torch.arange(batch_size) * vocab
out = probs.view(-1).index_select(0, samples + offset)
expected = torch.stack([probs[b, samples[b]] for b in range(batch_size)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # coordinates combined by arithmetic: gather_lint/static/flat_positions.py calls check_flat


def check_flat(text: str, what: str, sizes, rows_axis: int, stride, cols_axis: int) -> Violation:
    own, inner = sizes[rows_axis], sizes[cols_axis]
    o, i = dim_text(own), dim_text(inner)
    if must_differ(own, inner):
        effect = (f"here {o} > {i}, so the last rows reach past {o}*{i} and torch raises on the flattened tensor"
                  if value(own) > value(inner) else f"here {o} < {i}, so entries of different rows share positions and others get "
                  f"none, silently")
    else:
        effect = (f"when {o} > {i} the last rows reach past {o}*{i} and torch raises on the flattened tensor; when "
                  f"{o} < {i} entries of different rows share positions and others get none, silently")
    fix = f"stride the rows by the size of dim {cols_axis} ({i}): `rows * {i} + cols`"
    return Violation(
        CODE, SEVERITY,
        f"`{text}` combines coordinates of {what} along dim {rows_axis} (size {o}) and dim {cols_axis} (size {i}) "
        f"with the stride {dim_text(stride)}, the size of the rows' own dim; a row-major flat position of "
        f"{list(sizes)} strides the rows by {i}: {effect}; {fix}",
        help=fix,
    )


def check_grid(text: str, rows, stride, width, size) -> Violation:
    """`rows * stride + cols` with row numbers 0..R-1 and positions of a dim of C, indexing R * C entries: the
    flattened [R, C] grid, whose rows are C apart."""
    r, s, c = _shown(rows), _shown(stride), _shown(width)
    if must_differ(stride, width):
        effect = (f"here {s} > {c}, so the last rows reach past the {dim_text(size)} entries and torch raises"
                  if value(stride) > value(width) else
                  f"here {s} < {c}, so every row after the first reads entries of the rows before it, silently")
    else:
        effect = (f"when {s} > {c} the last rows reach past the end and torch raises; when {s} < {c} every row "
                  f"after the first reads entries of the rows before it, silently")
    fix = f"stride the rows by the row length {c}: `rows * {c} + cols`"
    return Violation(
        CODE, SEVERITY,
        f"`{text}` makes flat positions of a grid of {r} rows with the stride {s}, but it indexes {dim_text(size)} "
        f"entries, the [{r}, {c}] grid its columns come from flattened, whose rows are {c} apart: {effect}; {fix}",
        help=fix,
    )


def _shown(d) -> str:
    """A named size with its value when known: `vocab (50)`."""
    text = dim_text(d)
    return f"{text} ({value(d)})" if value(d) is not None and text != str(value(d)) else text
