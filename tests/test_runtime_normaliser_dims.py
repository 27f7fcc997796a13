"""Runtime GL002 for a softmax / log_softmax / gumbel_softmax given a dim out of range, most often a
size passed as the dim (`F.softmax(scores, n_experts)`). Looked at only once torch rejects the call:
raise mode raises torch's IndexError with torch's message after the explanation; valid calls return
torch's result unchanged."""
import warnings

import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

from gather_lint.runtime import GatherLintError, GatherLintWarning, checked  # noqa: E402

CALLS = {
    "F.softmax": lambda x, d: F.softmax(x, d),
    "torch.softmax": lambda x, d: torch.softmax(x, dim=d),
    "Tensor.softmax": lambda x, d: x.softmax(d),
    "F.log_softmax": lambda x, d: F.log_softmax(x, dim=d),
    "Tensor.log_softmax": lambda x, d: x.log_softmax(d),
    "F.gumbel_softmax": lambda x, d: F.gumbel_softmax(x, tau=0.5, dim=d),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_size_passed_as_the_dim_is_gl002_with_torchs_index_error(name):
    scores = torch.randn(3, 4)  # four experts
    with pytest.raises(IndexError, match="Dimension out of range") as plain:
        CALLS[name](scores, 4)
    with checked(), pytest.raises(IndexError, match="Dimension out of range") as caught:
        CALLS[name](scores, 4)
    assert isinstance(caught.value, GatherLintError) and caught.value.code == "GL002"
    text = str(caught.value)
    assert "the size of dim 1" in text and "pass dim=-1" in text, text
    assert str(plain.value).splitlines()[0] in text


def test_a_dim_out_of_range_that_is_no_size_is_still_explained():
    with checked(), pytest.raises(IndexError) as caught:
        F.softmax(torch.randn(3, 4), 7)
    assert "GL002" in str(caught.value) and "out of range for a 2-d tensor" in str(caught.value)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_valid_dims_return_torchs_result(name):
    scores = torch.randn(3, 4)
    torch.manual_seed(0)
    expected = CALLS[name](scores, -1)
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", GatherLintWarning)
        with checked():
            got = CALLS[name](scores, -1)
    assert torch.equal(got, expected)
