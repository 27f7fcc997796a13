"""A parameter annotated with a class of its own (`segmentations: SlidingWindowFeature`) is an object of that
class, whatever shape its docstring gives the data it wraps: iterating it yields what the class yields (here
(chunk, data) pairs), not the rows of a tensor of that shape."""
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


def test_a_tensor_annotation_keeps_the_docstring_shape():
    """Annotated as a tensor, the docstring's three dims are the parameter's, and the analysis reads the loop
    with them (what it then says of this program is not the point here: that the shape is used is)."""
    program = PROGRAM.replace("ANNOTATION", "torch.Tensor")
    assert [f.code for f in lint(program)] == ["GL001"]
