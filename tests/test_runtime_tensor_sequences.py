"""The runtime mode patches `Tensor.__getitem__`; CPython then gives the tensor type a sequence slot that
removing the patch cannot clear, and `torch.tensor([torch.tensor(1), torch.tensor(2)])` raised 'len() of a 0-d
tensor' while checking and ever after. The slots are kept as torch made them: both work, and subscripts are
still checked."""
import pytest

torch = pytest.importorskip("torch")


def _zero_d_list_converts():
    return torch.tensor([torch.tensor(1), torch.tensor(2)]).tolist() == [1, 2]


def test_a_list_of_0d_tensors_converts_while_checking_and_after():
    from gather_lint.runtime import GatherLintError, checking

    assert _zero_d_list_converts()
    with checking():
        assert _zero_d_list_converts()
        logits, ids = torch.randn(4, 6), torch.randint(6, (4,))
        with pytest.raises(GatherLintError, match="GL0"):  # the checks still run through the patched calls
            torch.gather(logits, 1, ids)
        rows = torch.arange(4)
        assert torch.equal(logits[rows, ids], torch.stack([logits[r, ids[r]] for r in range(4)]))
    assert _zero_d_list_converts()
    assert [int(t) for t in torch.arange(3)] == [0, 1, 2]
