"""GL012 device mismatch: the index lives on another device than the tensor it indexes.

Mixed CPU/CUDA arguments raise; a ``meta`` index with a CPU input is worse: gather returns a CPU
tensor of uninitialised memory, silently (torch-semantics S11).
"""
from typing import Optional

from ..contract import ERROR, Site, Violation
from ._example import Example

CODE = "GL012"
NAME = "device-mismatch"
SEVERITY = ERROR
FIX = None
STATIC = False  # devices are only known at run time

EXAMPLES = [
    Example(
        title="an index built on the meta device",
        bad="""
import torch
x = torch.randn(3, 4)
idx = torch.tensor([[0], [1], [2]])
out = torch.gather(x, 1, idx.to("meta"))
expected = torch.stack([x[r, idx[r]] for r in range(3)])
""",
        good="""
import torch
x = torch.randn(3, 4)
idx = torch.tensor([[0], [1], [2]])
out = torch.gather(x, 1, idx.to(x.device))
expected = torch.stack([x[r, idx[r]] for r in range(3)])
""",
    ),
]


def check(site: Site) -> Optional[Violation]:
    return None  # devices are not part of a static site


def message(index_device, input_device) -> str:
    return (f"index is on {index_device} but the input is on {input_device}; torch raises or, with a meta index, "
            f"silently returns uninitialised memory; move the index with `.to({input_device.type!r})`")
