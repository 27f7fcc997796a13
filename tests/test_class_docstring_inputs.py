"""A module's class docstring that documents its forward inputs gives their shapes.

Each program runs in torch first (the oracle: the unexpanded index reads only the first feature),
then through the linter: reported at the gather/scatter whose index the class docstring's shapes
show to be too narrow; silent with the expanded index, for parameters the constructor takes too,
and for methods other than forward / __call__.
"""
import textwrap

import pytest

from .conftest import lint
from .snippets import expected_lines, run_program

LAST_TOKEN_POOLER = '''
import torch
import torch.nn as nn


class LastTokenPooler(nn.Module):
    """Pools the hidden state of each sequence's last real token.

    Args:
        hidden_states (`torch.FloatTensor` of shape `(batch_size, seq_len, hidden_size)`):
            Encoder output.
        last_positions (`torch.LongTensor` of shape `(batch_size,)`):
            Position of the last real token of every sequence.
    """

    def forward(self, hidden_states, last_positions):
        where = last_positions[:, None, None]{use}
        return hidden_states.gather(1, where).squeeze(1)  # expect


if __name__ == "__main__":
    h = torch.randn(3, 5, 4)
    RESULT = LastTokenPooler()(h, torch.tensor([4, 2, 0])).shape, h.shape[-1]  # expect
'''

SEGMENT_SUM_CALLABLE = '''
import torch


class SegmentSum:
    """Sums the rows of every segment.

    Args:
        rows: float tensor of shape [num_rows, width]
        segment: long tensor of shape [num_rows]
        num_segments (int): how many segments there are
    """

    def __call__(self, rows, segment, num_segments):
        total = torch.zeros(num_segments, rows.shape[1])
        return total.scatter_add(0, segment.view(-1, 1){use}, rows)  # expect


if __name__ == "__main__":
    rows = torch.randn(6, 3)
    RESULT = SegmentSum()(rows, torch.tensor([0, 0, 1, 1, 2, 2]), 3).ne(0).any(0).sum().item(), rows.shape[1]  # expect
'''

STYLES = {"hf-style-module-gather": (LAST_TOKEN_POOLER, ".expand(-1, -1, hidden_states.size(-1))"),
          "plain-callable-scatter-add": (SEGMENT_SUM_CALLABLE, ".expand_as(rows)")}


def _program(template: str, use: str) -> str:
    return textwrap.dedent(template).replace("{use}", use)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_an_unexpanded_index_is_reported_from_the_class_docstring_and_torch_reads_one_feature(style, torch):
    bad = _program(STYLES[style][0], "")
    found = lint(bad)
    assert [f.line for f in found] == expected_lines(bad)[:1], found
    assert found[0].code in ("GL005", "GL009")
    covered, width = run_program(bad)
    covered = covered[-1] if isinstance(covered, torch.Size) else covered
    assert covered == 1 and width > 1  # torch: one feature per row, not all of them


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_expanded_index_is_silent_and_torch_reads_every_feature(style, torch):
    template, fix = STYLES[style]
    good = _program(template, fix)
    assert lint(good) == []
    covered, width = run_program(good)
    covered = covered[-1] if isinstance(covered, torch.Size) else covered
    assert covered == width


@pytest.mark.parametrize("code", [
    # the class docstring's Args are the constructor's: `index` there is not forward's `index`
    '''
    import torch.nn as nn
    class Picker(nn.Module):
        """Args:
            x (FloatTensor of shape (rows, width)): values.
            index (LongTensor of shape (n,)): rows kept by default.
        """
        def __init__(self, index):
            super().__init__()
            self.index = index
        def forward(self, x, index):
            return x.gather(0, index.unsqueeze(-1))
    ''',
    # a method other than forward: the class docstring does not describe its arguments
    '''
    import torch.nn as nn
    class Reader(nn.Module):
        """Args:
            table (FloatTensor of shape (rows, width)): values.
            ids (LongTensor of shape (n,)): rows to read.
        """
        def lookup(self, table, ids):
            return table.gather(0, ids.unsqueeze(-1))
    ''',
    # forward's own docstring wins over the class's
    '''
    import torch.nn as nn
    class Reader(nn.Module):
        """Args:
            table (FloatTensor of shape (rows, width)): values.
        """
        def forward(self, table, ids):
            """Args:
                table (FloatTensor of shape (rows, 1)): one value per row.
                ids (LongTensor of shape (n,)): rows to read.
            """
            return table.gather(0, ids.unsqueeze(-1))
    ''',
])
def test_class_docstring_facts_stay_with_forward_inputs_only(code):
    assert lint(textwrap.dedent(code)) == []
