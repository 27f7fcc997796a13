"""Running counts of a mask used as positions: a row without padding counts up to its length, past a
table of that many rows (RoBERTa-style position ids). Each claim is run in torch."""
import textwrap

import pytest

from .conftest import lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


ROBERTA_STYLE = """
import torch
import torch.nn as nn


def positions_after_padding(tokens, pad_id):
    keep = tokens.ne(pad_id).int()
    return (torch.cumsum(keep, dim=1).type_as(keep) * keep).long() + pad_id


class TextEmbeddings(nn.Module):
    def __init__(self, vocab, width, max_positions, pad_id=1):
        super().__init__()
        self.pad_id = pad_id
        self.tokens = nn.Embedding(vocab, width, padding_idx=pad_id)
        self.positions = nn.Embedding(max_positions, width, padding_idx=pad_id)

    def forward(self, tokens):
        return self.tokens(tokens) + self.positions(positions_after_padding(tokens, self.pad_id))


if __name__ == "__main__":
    layer = TextEmbeddings(vocab=30, width=8, max_positions=17)
    batch = torch.randint(2, 30, (4, 16))
    print(layer(batch).shape)
"""


def test_counts_of_non_padding_plus_the_pad_id_past_the_position_table(torch):
    assert findings(ROBERTA_STYLE) == [(19, "GL011")]
    assert int(torch.cumsum(torch.ones(1, 16, dtype=torch.int), dim=1).max()) + 1 == 17  # a row without padding
    scope = run(ROBERTA_STYLE)
    layer = scope["TextEmbeddings"](vocab=30, width=8, max_positions=17)
    with pytest.raises(IndexError, match="index out of range in self"):
        layer(torch.randint(2, 30, (4, 16)))  # position 17 in a table of 17 rows


def test_counts_that_fit_the_position_table_stay_silent(torch):
    fitting = ROBERTA_STYLE.replace("max_positions=17)", "max_positions=18)")  # length + pad id + 1
    assert findings(fitting) == []
    run(fitting)["TextEmbeddings"](vocab=30, width=8, max_positions=18)(torch.randint(2, 30, (4, 16)))


COUNTED_SLOTS = """
import torch


def slot_of_each_kept_item(keep_mask, table):
    slot = keep_mask.long().cumsum(-1)
    return table[slot]


def zero_based_slots(keep_mask, table):
    slot = keep_mask.long().cumsum(-1) - 1
    return table[slot.clamp(min=0)]


if __name__ == "__main__":
    items = torch.randn(3, 10)
    keep = items > -5
    print(slot_of_each_kept_item(keep, torch.randn(10, 4)), zero_based_slots(keep, torch.randn(10, 4)))
"""


def test_one_based_counts_index_one_past_a_table_sized_by_the_row(torch):
    assert findings(COUNTED_SLOTS) == [(7, "GL011")]
    scope = run(COUNTED_SLOTS)
    keep = torch.ones(3, 10, dtype=torch.bool)
    with pytest.raises(IndexError, match="index 10 is out of bounds for dimension 0 with size 10"):
        scope["slot_of_each_kept_item"](keep, torch.randn(10, 4))
    scope["zero_based_slots"](keep, torch.randn(10, 4))



def test_entries_before_the_last_along_the_counted_axis_stay_silent(torch):
    code = """
    import torch

    def first_counts(keep, table):
        counts = keep.long().cumsum(-1)
        return table[counts[:, 0]], table[counts[:, :5]]

    def last_counts(keep, table):
        return table[keep.long().cumsum(-1)[:, -1]]

    if __name__ == "__main__":
        keep = torch.randn(3, 10) > -5
        print(first_counts(keep, torch.randn(10, 4)), last_counts(keep, torch.randn(10, 4)))
    """
    assert findings(code) == [(9, "GL011")]
    scope = run(code)
    keep = torch.ones(3, 10, dtype=torch.bool)
    scope["first_counts"](keep, torch.randn(10, 4))
    with pytest.raises(IndexError, match="index 10 is out of bounds for dimension 0 with size 10"):
        scope["last_counts"](keep, torch.randn(10, 4))


def test_counts_capped_or_masked_in_place_stay_silent(torch):
    code = """
    import torch

    def capped(table, keep):
        slots = keep.long().cumsum(-1)
        slots.clamp_(max=9)
        return table[slots]

    def masked(table, keep):
        slots = keep.long().cumsum(-1)
        slots.masked_fill_(slots >= 10, 0)
        return table[slots]

    if __name__ == "__main__":
        keep = torch.randn(2, 10) > -5
        print(capped(torch.randn(10), keep), masked(torch.randn(10), keep))
    """
    assert findings(code) == []
    scope = run(code)
    keep = torch.ones(2, 10, dtype=torch.bool)
    scope["capped"](torch.randn(10), keep)
    scope["masked"](torch.randn(10), keep)
