"""The runtime's GL013 on scatter and a sink slot: writes nobody keeps, sent to one extra last position.

`out = zeros(B, L + 1).scatter(1, idx, src)[:, :-1]` with padding entries' idx set to L: they clash there, and
the slot is cut off, so the clash loses nothing. A clash anywhere else is still a lost write."""
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintWarning, checking  # noqa: E402


def _warned(fn) -> list:
    with checking(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [str(w.message) for w in caught if issubclass(w.category, GatherLintWarning)]


def _expand(lens, pad_to):
    """Token positions of a batch of runs: run j of row b fills lens[b, j] slots; padding goes to the sink."""
    batch, runs = lens.shape
    window = int(lens.max())
    offsets = torch.nn.functional.pad(lens.cumsum(-1), (1, -1))
    idx = torch.arange(window) + offsets.unsqueeze(-1)  # [B, runs, window]
    mask = torch.arange(window) < lens.unsqueeze(-1)
    idx = idx.masked_fill(~mask, pad_to).reshape(batch, -1)
    src = torch.arange(runs).repeat_interleave(window).expand(batch, -1)
    return torch.zeros(batch, pad_to + 1, dtype=torch.long).scatter(1, idx, src)


def test_padding_sent_to_a_sink_slot_is_silent():
    lens = torch.tensor([[2, 1, 3], [1, 1, 1]])
    out, warned = _warned(lambda: _expand(lens, 6)[:, :-1])
    assert not [w for w in warned if "GL013" in w]
    assert out[0].tolist() == [0, 0, 1, 2, 2, 2]


def test_a_clash_before_the_last_slot_is_still_reported():
    index = torch.tensor([[0, 1, 1, 3]])
    src = torch.tensor([[5, 6, 7, 8]])
    out, warned = _warned(lambda: torch.zeros(1, 4, dtype=torch.long).scatter(1, index, src))
    assert any("GL013" in w for w in warned)
    assert out[0, 1].item() in (6, 7)  # one of the two survives


def test_a_clash_at_the_last_slot_and_another_is_reported():
    index = torch.tensor([[0, 0, 3, 3]])
    src = torch.tensor([[5, 6, 7, 8]])
    _, warned = _warned(lambda: torch.zeros(1, 4, dtype=torch.long).scatter(1, index, src))
    assert any("GL013" in w for w in warned)
