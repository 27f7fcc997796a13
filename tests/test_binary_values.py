"""A boolean cast to an integer type (`(probs > 0.5).long()`) holds 0 and 1 only: used as an index into a dim
of size 1 (a one-channel segmentation head's class dim), every 1 is out of range. 0 and 1 are no dim's
positions, so a dim of size 2 elsewhere in the input (a batch of two) neither hides the finding nor makes
it a wrong-dim one."""
import textwrap

import pytest

from .conftest import codes

PIXEL_LOSS = """
import torch
import torch.nn as nn

def pixel_nll(seg_logits, seg_label):
    logp = seg_logits.log_softmax(dim=1)
    return -logp.gather(1, seg_label.unsqueeze(1)).mean()

if __name__ == "__main__":
    head = nn.Conv2d(8, {CHANNELS}, 1)
    images = torch.randn(2, 8, 12, 12)
    masks = (torch.rand(2, 12, 12) > 0.5){CAST}
    loss = pixel_nll(head(images), masks)
"""


@pytest.mark.parametrize("cast", [".long()", ".to(torch.long)", ".to(torch.int64)", ".type(torch.long)"])
def test_binary_labels_into_a_one_channel_head(cast, torch):
    code = PIXEL_LOSS.format(CHANNELS=1, CAST=cast)
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        exec(textwrap.dedent(code), {"__name__": "__main__"})


def test_binary_labels_into_two_classes_are_silent(torch):
    code = PIXEL_LOSS.format(CHANNELS=2, CAST=".long()")
    assert codes(code) == []
    exec(textwrap.dedent(code), {"__name__": "__main__"})
