"""Labels with an ignore value written among them (`seg[:, 0, :3] = 255`), kept by `seg != ignore_index` and
used as ids: the mask takes the written value out, also where the same statement rebinds the labels
(`seg, feats = seg[keep], feats[keep]`). A mask that keeps another value leaves 255 in, and torch raises.
Each claim runs in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

torch = pytest.importorskip("torch")

CLASS_SUMS = """
import torch

def class_sums(features, seg, num_classes, ignore_index=255):
    # features: (N, D)   seg: (N,)
    keep = seg != ignore_index
    KEEP
    sums = features.new_zeros(num_classes, features.shape[1])
    sums.index_add_(0, seg, feats)
    return sums

if __name__ == "__main__":
    seg = torch.randint(0, 5, (20,))
    seg[:3] = 255
    feats = torch.randn(20, 4)
    sums = class_sums(feats, seg, 5)
    ref = torch.zeros(5, 4)
    for i in range(20):
        if int(seg[i]) != 255:
            ref[int(seg[i])] += feats[i]
    assert torch.allclose(sums, ref, atol=1e-6)
"""


@pytest.mark.parametrize("kept", [
    "seg, feats = seg[keep], features[keep]",
    "seg = seg[keep]\n    feats = features[keep]",
    "feats = features[keep]\n    seg = seg[keep.nonzero(as_tuple=True)[0]]",
])
def test_labels_kept_apart_from_the_ignore_value_are_silent(kept):
    code = CLASS_SUMS.replace("KEEP", kept)
    assert codes(code) == []
    run_snippet(code)


def test_a_mask_that_keeps_the_ignore_value_is_still_reported():
    code = CLASS_SUMS.replace("keep = seg != ignore_index", "keep = seg != 7").replace(
        "KEEP", "seg, feats = seg[keep], features[keep]")
    assert codes(code) == ["GL011"]
    with pytest.raises((IndexError, RuntimeError), match="out of range|out of bounds"):
        run_snippet(code)
