"""Arrays read from image files, by the dtype their reader certainly gives.

Segmentation labels usually arrive as image files, and the readers give 8-bit arrays: a mask read that
way and turned into a tensor (`torch.from_numpy`, `torch.as_tensor`) is uint8, which gather, scatter and
index_select reject as an index (and `x[mask]` takes as a boolean mask).

* `cv2.imread(path)` and `cv2.imread(path, cv2.IMREAD_GRAYSCALE)` (or `IMREAD_COLOR`, 0, 1) are uint8;
  `IMREAD_UNCHANGED` / `IMREAD_ANYDEPTH` may keep 16 bits, so they stay unknown. `cv2.resize`,
  `cv2.cvtColor` and `cv2.flip` keep their input's dtype.
* A PIL image's array follows its mode: `np.array(Image.open(p).convert("L"))` is uint8 (also "P",
  "RGB", "RGBA"), "1" is bool, "I" int32, "F" float32. An image opened without `.convert` has the
  file's mode, which the code does not show: unknown.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from .numpy_values import ArrayVal

_EIGHT_BIT_FLAGS = {"IMREAD_GRAYSCALE", "IMREAD_COLOR", "IMREAD_REDUCED_GRAYSCALE_2", "IMREAD_REDUCED_COLOR_2"}
_KEEP_DTYPE = {"resize", "cvtColor", "flip", "GaussianBlur", "warpAffine", "rotate"}
_MODE_DTYPES = {"L": "uint8", "P": "uint8", "RGB": "uint8", "RGBA": "uint8", "CMYK": "uint8", "YCbCr": "uint8",
                "LAB": "uint8", "HSV": "uint8", "LA": "uint8", "1": "bool", "I": "int32", "F": "float32"}
_KEEP_MODE = {"resize", "crop", "rotate", "transpose", "copy", "filter"}


@dataclass(frozen=True)
class PilImage:
    """A PIL image; `mode` when the code sets it (`.convert("L")`)."""

    mode: Optional[str]


def qualified(name: str, args: list, node: ast.Call):
    """cv2.<func>(...) and PIL.Image.<func>(...) results (None when the dtype is not certain)."""
    module, _, func = name.rpartition(".")
    if module == "cv2":
        if func == "imread":
            return _imread(node)
        if func in _KEEP_DTYPE and args and isinstance(args[0], ArrayVal):
            return args[0]
        return None
    if module == "PIL.Image" and func in ("open", "fromarray"):
        mode = next((k.value for k in node.keywords if k.arg == "mode"), None) if func == "fromarray" else None
        return PilImage(mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else None)
    return None


def method(owner: PilImage, name: str, node: ast.Call) -> Optional[PilImage]:
    """img.convert("L") sets the mode; resize/crop/rotate keep it."""
    if name == "convert":
        mode = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "mode"), None)
        return PilImage(mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else None)
    return owner if name in _KEEP_MODE else None


def array_of(image: PilImage) -> Optional[ArrayVal]:
    """np.array(img) / np.asarray(img)."""
    dtype = _MODE_DTYPES.get(image.mode) if image.mode else None
    return ArrayVal(dtype) if dtype else None


def _imread(node: ast.Call) -> Optional[ArrayVal]:
    flags = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "flags"), None)
    if flags is None:
        return ArrayVal("uint8")  # IMREAD_COLOR by default
    if isinstance(flags, ast.Attribute) and flags.attr in _EIGHT_BIT_FLAGS:
        return ArrayVal("uint8")
    if isinstance(flags, ast.Constant) and flags.value in (0, 1):
        return ArrayVal("uint8")
    return None
