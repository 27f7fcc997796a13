"""Packed sequences through a recurrent layer, and positions used on the wrong dim of a plain subscript.

`pack_padded_sequence` keeps the batch size and the width; the layer's final state is [num_layers x
directions, batch, hidden] whichever way the batch is laid out, so un-sorting it with the batch's
positions on dim 0 (`hidden[restore]`) uses them on the layers dim: GL004 at the subscript (the same rule as
for index_select). Torch is the oracle: the wrong form raises IndexError when the batch outnumbers the
layers, and silently mixes layers when it does not; `hidden[:, restore]` is the un-sorted state.
"""
import pytest

from .conftest import lint
from .snippets import run_snippet

PROGRAM = """
    import torch
    import torch.nn as nn

    class Encoder(nn.Module):
        def __init__(self, vocab, dim, hidden, layers):
            super().__init__()
            self.embedding = nn.Embedding(vocab, dim)
            self.rnn = nn.GRU(dim, hidden, num_layers=layers, batch_first=True)

        def forward(self, ids, lengths):
            sorted_lengths, order = torch.sort(lengths, descending=True)
            _, restore = torch.sort(order)
            packed = nn.utils.rnn.pack_padded_sequence(self.embedding(ids[order]), sorted_lengths, batch_first=True)
            out, hidden = self.rnn(packed)
            return hidden[restore]

    if __name__ == "__main__":
        torch.manual_seed(0)
        encoder = Encoder(20, 8, 6, LAYERS)
        ids = torch.randint(1, 20, (BATCH, 5))
        lengths = torch.tensor(LENGTHS)
        out = encoder(ids, lengths)
"""


def _program(layers: int, lengths) -> str:
    return PROGRAM.replace("LAYERS", str(layers)).replace("BATCH", str(len(lengths))).replace("LENGTHS", str(lengths))


def test_batch_positions_on_the_layers_dim_raise_and_are_reported(torch):
    program = _program(2, [5, 2, 4, 3])
    found = [f for f in lint(program) if f.code == "GL004"]
    assert [f.line for f in found] == [16], [f"{f.line}: {f.message}" for f in lint(program)]
    assert "hidden[:, restore]" in found[0].message
    with pytest.raises(IndexError):
        run_snippet(program)


def test_when_the_positions_fit_the_layers_dim_the_state_is_silently_mixed(torch):
    # two sequences, two layers: every position fits dim 0; the comment and the int parameters name the batch
    # and the layers, so the positions are known to be the batch's (sizes equal only as numbers say nothing)
    program = _program(2, [3, 5]).replace("def forward(self, ids, lengths):",
                                          "def forward(self, ids, lengths):\n            # ids: [B, T], lengths: [B]")
    program = program.replace("def __init__(self, vocab, dim, hidden, layers):",
                              "def __init__(self, vocab: int, dim: int, hidden: int, layers: int):")
    found = [f for f in lint(program) if f.code == "GL004"]
    assert [f.line for f in found] == [17], [f"{f.line}: {f.message}" for f in lint(program)]
    assert "silently reads the wrong entries" in found[0].message
    scope = run_snippet(program)
    encoder, ids, lengths = scope["encoder"], scope["ids"], scope["lengths"]
    order = torch.sort(lengths, descending=True).indices
    restore = torch.sort(order).indices
    packed = torch.nn.utils.rnn.pack_padded_sequence(encoder.embedding(ids[order]), lengths[order], batch_first=True)
    with torch.no_grad():
        _, hidden = encoder.rnn(packed)
        assert not torch.equal(scope["out"], hidden[:, restore])


def test_unsorting_the_batch_dim_stays_silent(torch):
    program = _program(2, [5, 2, 4, 3]).replace("return hidden[restore]", "return hidden[:, restore]")
    assert lint(program) == []
    run_snippet(program)
