"""Runtime GL016: a scatter/index_add/index_copy payload whose dtype differs from self's.

At run time the dtypes are real, so float32 against float64 (or bfloat16, float16) is as certain as
int64 against float32: torch raises for every pair. The raised error is torch's exception type with
torch's message after the explanation. Under autocast the check stands aside (CUDA autocast promotes
scatter_add's inputs), and torch decides.
"""
import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, checked  # noqa: E402

INDEX = [0, 1, 1]
CALLS = {
    "scatter_add_": lambda s, v: s.scatter_add_(0, torch.tensor(INDEX), v),
    "torch.scatter_add": lambda s, v: torch.scatter_add(s, 0, torch.tensor(INDEX), v),
    "scatter_reduce_": lambda s, v: s.scatter_reduce_(0, torch.tensor(INDEX), v, "amax"),
    "scatter_": lambda s, v: s.scatter_(0, torch.tensor(INDEX), v),
    "index_add_": lambda s, v: s.index_add_(0, torch.tensor(INDEX), v),
    "index_copy_": lambda s, v: s.index_copy_(0, torch.tensor([2, 0, 1]), v),
}
PAIRS = [(torch.float32, torch.float64), (torch.float64, torch.float32), (torch.bfloat16, torch.float32),
         (torch.float32, torch.float16)]


@pytest.mark.parametrize("mine, theirs", PAIRS, ids=str)
@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_payload_of_another_float_dtype_is_gl016_with_torchs_error(name, mine, theirs):
    call = CALLS[name]
    with pytest.raises(RuntimeError) as plain:
        call(torch.zeros(3, dtype=mine), torch.ones(3, dtype=theirs))  # the oracle: torch rejects it
    with checked(), pytest.raises(GatherLintError, match="GL016") as caught:
        call(torch.zeros(3, dtype=mine), torch.ones(3, dtype=theirs))
    assert isinstance(caught.value, RuntimeError)
    assert str(plain.value).splitlines()[0] in str(caught.value)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matching_dtypes_pass_and_give_torchs_result(name):
    call = CALLS[name]
    expected = call(torch.zeros(3, dtype=torch.float64), torch.arange(3.0, dtype=torch.float64))
    with checked():
        got = call(torch.zeros(3, dtype=torch.float64), torch.arange(3.0, dtype=torch.float64))
    assert torch.equal(got, expected)


def test_under_autocast_torch_decides():
    with checked(), torch.autocast("cpu", dtype=torch.bfloat16), pytest.raises(RuntimeError) as caught:
        torch.zeros(3).scatter_add_(0, torch.tensor(INDEX), torch.ones(3, dtype=torch.float64))
    assert not isinstance(caught.value, GatherLintError)  # CPU autocast does not promote: torch's own error
