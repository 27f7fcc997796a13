"""What a constructor fills a new tensor with, when every element starts the same (TensorVal.filled).

"zeros" and "empty" buffers matter to a scatter_reduce that reads them (GL014). "ones" and "full"
tensors hold one value throughout: a src made so loses nothing when a smaller index reads only its
leading block (GL009), as `ops_job_map.new_ones((bs, num_jobs, n_ops))` scattered with a
`[bs, 1, n_ops]` index writes the same ones a `[bs, 1, n_ops]` src would. A tensor made with
`requires_grad=` is a leaf whose gradient the backward pass computes, so it is not counted as a fill.
"""
from __future__ import annotations

from typing import Optional

_FILLS = {
    "zeros": "zeros", "zeros_like": "zeros", "new_zeros": "zeros",
    "empty": "empty", "empty_like": "empty", "new_empty": "empty",
    "ones": "ones", "ones_like": "ones", "new_ones": "ones",
    "full": "full", "full_like": "full", "new_full": "full",
}
CONSTANT = ("ones", "full")  # one value in every element, known or not


def fill(constructor: str, kwargs: dict) -> Optional[str]:
    """The `filled` mark of `constructor(...)` with these keywords; None for any other call."""
    made = _FILLS.get(constructor)
    if made in CONSTANT and "requires_grad" in kwargs:
        return None
    return made
