"""GL024 at run time: a read that picks, for some row, a position the data marks as padding.

What marks positions as padding, remembered as it is seen (weakly, the latest few):
- an embedding looked up with a `padding_idx` (`nn.Embedding(V, H, padding_idx=0)`): ids equal to it;
- `pad_sequence(seqs, batch_first=True)`: the positions past each sequence's length (its `padding_side`);
- a module called with ids [B, T] and an attention mask of their shape (a parameter or keyword named
  `attention_mask` or `input_mask`, holding only 0 and 1): the positions where it is 0.
Only a batch whose padding sits at one end of every row (all rows right-padded, or all left-padded) counts.

The reads: `h[:, -k]` / `h[:, -k, :]` (counted from the end: a loop's `h[:, t]` reads every step on purpose),
`h[rows, pos]` with rows `arange(B)`, and `h.gather(1, pos)` with one
position per row, of a floating [B, T, ...] tensor (a model's states, logits, rewards) whose first two sizes
are the batch's. A row is reported when the position read is padding while the row has real positions: the
last position of a right-padded batch, `lengths` as the index (one past the last real token), `mask.sum(1) - 1`
on a left-padded batch. Nothing is computed until such a read meets a remembered batch of its sizes.
"""
from __future__ import annotations

import inspect
import weakref
from typing import Dict, List, Optional, Tuple

import torch

from ..contract import WARNING, Violation
import gather_lint.runtime.values as values

CODE = "GL024"
_KEPT = 4  # the latest padded batches remembered
_MASK_NAMES = ("attention_mask", "input_mask")  # 1 = a real token (key_padding_mask-like names mean the opposite)
# (tensor, its version, how its padding is told, the description for messages, (B, T))
SOURCES: List[Tuple[weakref.ref, int, tuple, str, tuple]] = []


def clear() -> None:
    SOURCES.clear()
    _FORWARD_NAMES.clear()


def _version(t: torch.Tensor) -> int:
    return -1 if t.is_inference() else t._version


def _remember(t: torch.Tensor, how: tuple, described: str) -> None:
    for ref, *_ in SOURCES:
        if ref() is t:
            return
    try:
        ref = weakref.ref(t)
    except TypeError:
        return
    SOURCES.append((ref, _version(t), how, described, tuple(t.shape[:2])))
    if len(SOURCES) > _KEPT:
        del SOURCES[0]


def note_padding_id(ids, weight, padding_idx) -> None:
    """F.embedding(ids, weight, padding_idx): ids equal to padding_idx are padding."""
    if type(ids) is not torch.Tensor or ids.dim() != 2 or ids.shape[1] < 2 or not isinstance(padding_idx, int) \
            or not isinstance(weight, torch.Tensor) or weight.dim() != 2:
        return
    pad = padding_idx % weight.shape[0] if -weight.shape[0] <= padding_idx < weight.shape[0] else padding_idx
    _remember(ids, ("id", pad), f"the embedding's padding_idx {pad} (ids {list(ids.shape)})")


def note_padded(result, lengths: List[int], side: str) -> None:
    """pad_sequence(..., batch_first=True) -> result [B, T, ...]: position t of row b is real when t < lengths[b]
    (right padding) or t >= T - lengths[b] (left)."""
    if type(result) is not torch.Tensor or result.dim() < 2 or len(lengths) != result.shape[0] \
            or side not in ("right", "left") or len(set(lengths)) < 2:
        return
    _remember(result, ("lengths", tuple(lengths), side), f"pad_sequence ({side} padding, lengths {list(lengths)[:8]})")


_FORWARD_NAMES: Dict[object, Tuple[str, ...]] = {}  # forward function -> its positional parameter names


def _positional_names(module) -> Tuple[str, ...]:
    forward = type(module).forward
    names = _FORWARD_NAMES.get(forward)
    if names is None:
        try:
            params = list(inspect.signature(forward).parameters.values())[1:]  # past self
            names = tuple(p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
        except (TypeError, ValueError):
            names = ()
        _FORWARD_NAMES[forward] = names
    return names


def note_module_call(module, args: tuple, kwargs: dict) -> None:
    """A module called with integer ids [B, T] and an attention mask of their shape: its 0s are padding."""
    ids = args[0] if args else kwargs.get("input_ids")  # a model's first input: inner layers get states
    if not _is_ids(ids):
        return
    named = {k: v for k, v in kwargs.items() if k in _MASK_NAMES or k.endswith("attention_mask")}
    if len(args) > 1:
        for name, value in zip(_positional_names(module), args):
            if name in _MASK_NAMES or name.endswith("attention_mask"):
                named[name] = value
    for name, mask in named.items():
        if type(mask) is torch.Tensor and mask is not ids and mask.shape == ids.shape:
            _remember(mask, ("mask",), f"the {name} {list(mask.shape)} passed to {type(module).__name__}")


def _is_ids(a) -> bool:
    return type(a) is torch.Tensor and a.dim() == 2 and a.shape[1] > 1 and a.dtype in (torch.long, torch.int)


def _real(t: torch.Tensor, how: tuple) -> Optional[torch.Tensor]:
    """[B, T] bool, True at real positions; None when the values say no padding is told (not a 0/1 mask)."""
    kind = how[0]
    if kind == "id":
        return t != how[1]
    if kind == "lengths":
        lengths = torch.tensor(how[1], device=t.device)
        steps = torch.arange(t.shape[1], device=t.device)
        if how[2] == "right":
            return steps < lengths[:, None]
        return steps >= (t.shape[1] - lengths)[:, None]
    if t.is_floating_point() or t.dtype == torch.bool:
        real = t != 0
        return real if t.dtype == torch.bool or bool(((t == 0) | (t == 1)).all()) else None
    return t != 0 if bool(((t == 0) | (t == 1)).all()) else None


def _one_end(real: torch.Tensor) -> bool:
    """Every row's padding at one end, the same end for every row (right: no real position after a pad)."""
    after = real[:, 1:].int() - real[:, :-1].int()
    return not bool((after > 0).any()) or not bool((after < 0).any())


def _batches(x: torch.Tensor, level: str) -> List[Tuple[torch.Tensor, str]]:
    """(real positions [B, T], what told them) of the live, unchanged batches with x's first two sizes."""
    found = []
    batch = tuple(x.shape[:2])
    for ref, version, how, described, shape in reversed(SOURCES):
        if shape != batch:
            continue
        t = ref()
        if t is None or _version(t) != version or not values.has_values(t) or not (t.is_cpu or level == "sync") \
                or t.device != x.device:
            continue
        real = _real(t, how)
        if real is not None and _one_end(real):
            found.append((real, described))
    return found


def _readable_states(x, level: str) -> bool:
    return type(x) in (torch.Tensor, torch.nn.Parameter) and x.dim() >= 2 and x.is_floating_point() \
        and x.shape[1] > 1 and (x.is_cpu or level == "sync") and values.has_values(x)


def _padding_read(real: torch.Tensor, positions: torch.Tensor) -> Optional[Tuple[int, int, int]]:
    """(rows reading padding, the first such row, its position) for one position per row, in range."""
    rows = torch.arange(real.shape[0], device=real.device)
    at = real[rows, positions]
    wrong = ~at & real.any(1)
    count = int(wrong.sum())
    if not count:
        return None
    row = int(wrong.nonzero()[0])
    return count, row, int(positions[row])


def _violation(read: str, found: Tuple[int, int, int], real: torch.Tensor, described: str) -> Violation:
    count, row, position = found
    kept = real[row].nonzero().squeeze(1)
    first, last = int(kept[0]), int(kept[-1])
    side = "right" if bool(real[:, 0].all()) else "left"
    fix = "each row's last real position (`[torch.arange(B), mask.sum(1) - 1]`)" if side == "right" \
        else "the last position (`[:, -1]`), where a left-padded row ends"
    return Violation(
        CODE, WARNING,
        f"`{read}` reads padding in {count} of {real.shape[0]} rows (row {row} at position {position}; its real "
        f"positions are {first}..{last}), as {described} marks them: those rows get a pad position's value instead "
        f"of a real token's, silently; read {fix}",
    )


def _agreed(read: str, batches: List[Tuple[torch.Tensor, str]], positions: torch.Tensor) -> Optional[Violation]:
    """The report for the newest batch of the read's sizes, when every live batch of those sizes says the read
    meets padding: two batches of one size padded differently leave it unknown which one the states came from."""
    found = [(_padding_read(real, positions), real, described) for real, described in batches]
    if not found or any(f is None for f, _, _ in found):
        return None
    return _violation(read, *found[0])


def _key_position(key, steps: int) -> Optional[int]:
    """p of `[:, p]`, `[:, p, :]`, `[:, p, ...]`; None for another key."""
    if type(key) is not tuple or len(key) < 2 or type(key[1]) is not int or not _whole(key[0]):
        return None
    if not all(_whole(k) or k is Ellipsis for k in key[2:]):
        return None
    return key[1] + steps if -steps <= key[1] < 0 else (key[1] if 0 <= key[1] < steps else None)


def _whole(k) -> bool:
    return type(k) is slice and k.start is None and k.stop is None and k.step is None


def position_read(x, key, level: str) -> Optional[Violation]:
    """`h[:, p]` (and `h[:, p, :]`) on a batch's states: the same position for every row."""
    if not SOURCES or len(key) < 2 or type(key[1]) is not int or key[1] >= 0 or not _whole(key[0]) \
            or not _readable_states(x, level):
        return None  # the key's form first: most subscripts are something else, and it costs no tensor access
    # only a position counted from the end: `h[:, t]` with t from a loop over the steps reads padding on
    # purpose (masked later), while `h[:, -1]` says "each row's last token", which padding makes untrue
    position = _key_position(key, x.shape[1])
    if position is None:
        return None
    spelled = ", ".join([":", str(key[1])] + [":" if k is not Ellipsis else "..." for k in key[2:]])
    return _agreed(f"x[{spelled}]", _batches(x, level), torch.full((x.shape[0],), position, device=x.device))


def picked_read(x, key, level: str) -> Optional[Violation]:
    """`h[torch.arange(B), pos]`: one position per row."""
    if not SOURCES or type(key) is not tuple or len(key) < 2 or not _readable_states(x, level):
        return None
    rows, positions = key[0], key[1]
    if type(rows) is not torch.Tensor or type(positions) is not torch.Tensor or rows.dim() != 1 \
            or positions.dim() != 1 or rows.shape != positions.shape or rows.shape[0] != x.shape[0] \
            or rows.is_floating_point() or positions.is_floating_point() or rows.dtype == torch.bool \
            or positions.dtype == torch.bool or rows.device != x.device or positions.device != x.device:
        return None
    if not all(_whole(k) or k is Ellipsis for k in key[2:]):
        return None
    if not torch.equal(rows, torch.arange(x.shape[0], device=x.device, dtype=rows.dtype)):
        return None
    steps = x.shape[1]
    if bool(((positions < -steps) | (positions >= steps)).any()):
        return None  # out of range: torch raises, and the range check says why
    positions = positions.long() % steps
    return _agreed("x[torch.arange(B), index]", _batches(x, level), positions)


def gathered_read(inp, dim, index, level: str, spelling: str) -> Optional[Violation]:
    """`h.gather(1, pos)` with pos [B, 1] or [B, 1, H] (one position per row, the same across the rest)."""
    if not SOURCES or not isinstance(dim, int) or type(index) is not torch.Tensor or not _readable_states(inp, level):
        return None
    if dim % inp.dim() != 1 or index.dim() != inp.dim() or index.shape[1] != 1 or index.shape[0] != inp.shape[0] \
            or index.is_floating_point() or index.device != inp.device or not values.has_values(index):
        return None
    flat = index.reshape(index.shape[0], -1)
    positions = flat[:, 0]
    if not bool((flat == positions[:, None]).all()):
        return None  # several positions per row: not a one-position read
    steps = inp.shape[1]
    if bool(((positions < 0) | (positions >= steps)).any()):
        return None  # torch raises
    return _agreed(f"{spelling}(1, index)", _batches(inp, level), positions.long())
