"""GL008 at run time for a gather torch 2.13 computes wrong on CPU: along dim 0, an int32 index expanded over
every other dim (the row-selection idiom with int32 ids) reads other rows than it names, without an error.
The check compares the result with the rows the index names, so it reports only what torch got wrong."""
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintWarning, checked  # noqa: E402


def warnings_of(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with checked("warn"):
            result = fn()
    return result, [w for w in caught if issubclass(w.category, GatherLintWarning)]


X = torch.arange(24.0).view(6, 4)
IDS = torch.tensor([3, 1, 5], dtype=torch.int32)


@pytest.mark.parametrize("call", [
    lambda: X.gather(0, IDS.unsqueeze(1).expand(-1, 4)),
    lambda: torch.gather(X, 0, IDS.unsqueeze(1).expand(-1, 4)),
    lambda: X.gather(dim=0, index=IDS[:, None].expand(3, 4)),
])
def test_int32_rows_expanded_over_the_columns_are_misread_and_reported(call):
    meant = X[IDS.long()]
    assert torch.__version__.startswith("2.13")
    assert not torch.equal(call(), meant)  # torch 2.13 on CPU: other rows than the index names, no error
    result, found = warnings_of(call)
    assert torch.equal(result, call())  # the checks leave torch's result as it is
    assert len(found) == 1 and "GL008" in str(found[0].message)
    text = str(found[0].message)
    assert "returned wrong rows" in text and "the index says row 1" in text and "`.long()`" in text
    assert found[0].filename == __file__  # the user's line


@pytest.mark.parametrize("index", [
    IDS.long().unsqueeze(1).expand(-1, 4),                # int64: right
    IDS.unsqueeze(1).expand(-1, 4).contiguous(),          # int32, not expanded: right
    torch.tensor([3, 1, 2], dtype=torch.int32).unsqueeze(0).expand(6, -1),  # int32 expanded over rows, along dim 1: right
])
def test_gathers_torch_computes_right_stay_silent(index):
    dim = 0 if index.shape[1] == 4 else 1
    expected = X.gather(dim, index.long().contiguous())
    result, found = warnings_of(lambda: X.gather(dim, index))
    assert torch.equal(result, expected)
    assert found == []
