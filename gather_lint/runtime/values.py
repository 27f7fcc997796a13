"""Index-value checks on the tensor's own device, before the op runs.

CPU (and CUDA at the `sync` level): min/max of the index, then the first bad coordinate.
CUDA at the default level: a device-side async assert, so no host sync is forced.
Stride-0 (expanded) dims are collapsed first: same values, a fraction of the work.
"""
from typing import Optional, Tuple

import torch


def deexpand(t: torch.Tensor) -> torch.Tensor:
    """View of t with every stride-0 dim collapsed to size 1: the same set of values."""
    strides = t.stride()
    if 0 in strides:
        t = t.as_strided([1 if s == 0 else n for n, s in zip(t.shape, strides)], strides)
    return t


def has_values(t: torch.Tensor) -> bool:
    """Values can be read: not meta/fake, not a vmap/functorch wrapper, not while jit.trace records."""
    cls = type(t)
    if (cls is not torch.Tensor and cls is not torch.nn.Parameter and _is_fake(t)) or t.is_meta or t.numel() == 0:
        return False
    if torch.compiler.is_compiling():
        return True  # read only through in-graph asserts
    return not torch.jit.is_tracing() and not _is_wrapped(t)


def _is_wrapped(t: torch.Tensor) -> bool:
    # vmap's batched tensors (and grad's wrappers) cannot be read with int(): value checks skip them
    return torch._C._functorch.is_functorch_wrapped_tensor(t)


def _is_fake(t: torch.Tensor) -> bool:
    return type(t).__name__ == "FakeTensor" or "Functional" in type(t).__name__


_SMALL = 64  # below this many values, reading them into Python beats a reduction kernel


def span(index: torch.Tensor) -> Tuple[int, int]:
    if index.is_cpu and index.numel() <= _SMALL:
        flat = index.tolist()
        if index.dim() == 0:
            return flat, flat
        for _ in range(index.dim() - 1):  # nested lists, flattened in Python (cheaper than a reshape)
            flat = [v for row in flat for v in row]
        return min(flat), max(flat)
    low, high = torch.aminmax(deexpand(index))
    return int(low), int(high)


def first_bad(index: torch.Tensor, low: int, high: int) -> Tuple[Tuple[int, ...], int]:
    """Coordinate and value of the first out-of-range element (row-major)."""
    bad = ((index < low) | (index > high)).nonzero()
    coord = tuple(int(c) for c in bad[0]) if bad.numel() else ()
    value = int(index[coord]) if coord or index.dim() == 0 else 0
    return coord, value


def assert_async(index: torch.Tensor, size: int, message: str, allow_negative: bool = False) -> None:
    """Device-side check with no host sync (CUDA), message kept where torch keeps it (CPU)."""
    v = deexpand(index)
    torch._assert_async(((v >= (-size if allow_negative else 0)) & (v < size)).all(), message)


def fits(low: int, high: int, size: int, allow_negative: bool = False) -> bool:
    lower = -size if allow_negative else 0
    return low >= lower and high < size


def hint_other_dim(low: int, high: int, shape, axis: int, rank: int) -> Optional[str]:
    """'values fit dim -1 (size 50000): did you mean dim=-1?' when exactly one other dim fits them."""
    if low < 0:
        return None
    fitting = [k for k, n in enumerate(shape) if k != axis and high < n]
    if len(fitting) != 1:
        return None
    k = fitting[0]
    return f"values fit dim {k - rank} (size {shape[k]}): did you mean dim={k - rank}?"
