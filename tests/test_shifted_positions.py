"""Top-k positions shifted into blocks of a wider dim (`idx + k * block`) and joined: the last block's
positions reach past a dim with fewer blocks. F.unfold's [N, C * kh * kw, L] shape gives that dim.
Each claim is run in torch."""
import textwrap

import pytest

from .conftest import lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


BLOCKS = """
import torch


def best_in_each_block(scores, values, k):
    block = scores.size(1)
    idx = scores.topk(k, dim=1).indices
    wide = torch.cat([idx, idx + block, idx + 2 * block], dim=1)
    return values.gather(1, wide)


if __name__ == "__main__":
    scores = torch.randn(2, 6, 5)
    print(best_in_each_block(scores, torch.randn(2, 12, 5), 3).shape)
"""


def test_three_blocks_of_positions_into_two_blocks_of_rows(torch):
    assert findings(BLOCKS) == [(9, "GL011")]
    with pytest.raises(RuntimeError, match="out of bounds for dimension 1 with size 12"):
        run(BLOCKS)["best_in_each_block"](torch.randn(2, 6, 5), torch.randn(2, 12, 5), 3)


def test_as_many_blocks_as_rows_stay_silent(torch):
    code = BLOCKS.replace("torch.randn(2, 12, 5)", "torch.randn(2, 18, 5)")
    assert findings(code) == []
    run(code)["best_in_each_block"](torch.randn(2, 6, 5), torch.randn(2, 18, 5), 3)


WINDOWS = """
import torch
import torch.nn as nn
import torch.nn.functional as F

CHANNELS = 3


class NearestInWindow(nn.Module):
    def __init__(self, window=3, keep=4):
        super().__init__()
        self.window, self.keep = window, keep

    def forward(self, image):
        area = self.window ** 2
        patches = F.unfold(image, kernel_size=self.window, padding=self.window // 2)
        first = F.unfold(image[:, :1], kernel_size=self.window, padding=self.window // 2)
        _, near = (first - first[:, area // 2:area // 2 + 1]).abs().topk(self.keep, dim=1, largest=False)
        picks = torch.cat((near, near + area, near + 2 * area), dim=1)
        return torch.gather(patches, 1, picks)


if __name__ == "__main__":
    print(NearestInWindow()(torch.randn(2, 2, 6, 6)).shape)
"""


def test_channel_blocks_past_an_unfolded_input_with_fewer_channels(torch):
    assert findings(WINDOWS) == [(20, "GL011")]
    assert torch.nn.functional.unfold(torch.randn(2, 2, 6, 6), kernel_size=3, padding=1).shape == (2, 18, 36)
    with pytest.raises(RuntimeError, match="out of bounds for dimension 1 with size 18"):
        run(WINDOWS)["NearestInWindow"]()(torch.randn(2, 2, 6, 6))


def test_channel_blocks_that_fit_the_unfolded_input_stay_silent(torch):
    code = WINDOWS.replace("torch.randn(2, 2, 6, 6)", "torch.randn(2, 3, 6, 6)")
    assert findings(code) == []
    assert run(code)["NearestInWindow"]()(torch.randn(2, 3, 6, 6)).shape == (2, 12, 36)


def test_a_shift_that_is_not_a_whole_block_stays_silent():
    code = """
    import torch

    def after_best(scores, values):
        best = scores.argmax(dim=1)
        return values.gather(1, (best + 1).unsqueeze(1))

    if __name__ == "__main__":
        print(after_best(torch.randn(4, 6), torch.randn(4, 6)))
    """
    assert findings(code) == []
