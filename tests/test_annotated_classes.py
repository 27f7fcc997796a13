"""A parameter annotated with a class of its own (`segmentations: SlidingWindowFeature`) is an object of that
class, whatever shape its docstring gives the data it wraps: iterating it yields what the class yields (here
(chunk, data) pairs), not the rows of a tensor of that shape."""
import re
import subprocess
import sys

from .conftest import lint
from .snippets import run_snippet

PROGRAM = '''
import numpy as np
import torch


class SlidingWindowFeature:
    def __init__(self, data):
        self.data = data

    def __iter__(self):
        for k, chunk in enumerate(self.data):
            yield (k, k + 1), chunk


def active_speakers(segmentations: ANNOTATION, onset: float = 0.5):
    """
    Parameters
    ----------
    segmentations : (num_chunks, num_frames, local_num_speakers)-shaped SlidingWindowFeature
    """
    found = []
    for c, (chunk, segmentation) in enumerate(segmentations):
        this = segmentation[1:]
        for speaker in range(this.shape[1]):
            found.append(bool(np.any(this[:, speaker] > onset)))
    return found


if __name__ == "__main__":
    OUT = active_speakers(SlidingWindowFeature(np.random.rand(3, 5, 2)))
'''


def test_a_docstring_shape_is_not_given_to_an_object_of_another_class():
    program = PROGRAM.replace("ANNOTATION", "SlidingWindowFeature")
    assert lint(program) == []
    assert len(run_snippet(program)["OUT"]) == 6


def test_a_tensor_annotation_keeps_the_docstring_shape(tmp_path):
    """Annotated as a tensor, the docstring's three dims are the parameter's: its rows are [num_frames, speakers].
    Unpacking a row into a pair, as the class's items are unpacked, refutes that shape (a row has num_frames
    entries, not two): the pair's names get no shape from it, and nothing is reported from it."""
    program = PROGRAM.replace("ANNOTATION", "torch.Tensor")
    rows = program.replace("for c, (chunk, segmentation) in enumerate(segmentations):",
                           "for c, segmentation in enumerate(segmentations):")
    assert _shapes(tmp_path, rows)["segmentation"] == "[num_frames, local_num_speakers]"
    assert "segmentation" not in _shapes(tmp_path, program) and lint(program) == []


def _shapes(tmp_path, program: str) -> dict:
    """name -> shape as `gather-lint shapes` lists the bindings of a program."""
    script = tmp_path / "program.py"
    script.write_text(program)
    out = subprocess.run([sys.executable, "-m", "gather_lint", "shapes", str(script)], capture_output=True, text=True)
    rows = (re.match(r"\s*\d+\s+(\w+)\s+(\[[^\]]*\]|\?)", line) for line in out.stdout.splitlines())
    return {m.group(1): m.group(2) for m in rows if m}
