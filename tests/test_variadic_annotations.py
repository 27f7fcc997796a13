"""`Float[Tensor, "... vocab"]` (any leading dims, a named last one) called with a tensor of known shape: the
call's leading dims and the annotation's names, sized by the call. Claims run in torch."""
import pytest

from .conftest import codes
from .snippets import call_run as run

torch = pytest.importorskip("torch")

LOSS = """
import torch
from jaxtyping import Float, Int
from torch import Tensor

def cross_entropy(inputs: Float[Tensor, "ANNOTATION"], targets: Int[Tensor, "..."]) -> Float[Tensor, ""]:
    nll = -inputs.log_softmax(-1)
    return nll.gather(DIM, targets.unsqueeze(-1)).mean()

def run():
    logits = torch.randn(8, 64, 28)
    targets = torch.randint(0, 28, (8, 64))
    return cross_entropy(logits, targets)
"""


@pytest.mark.parametrize("annotation", ["... vocab", "... seq vocab", "*batch vocab"])
def test_ids_gathered_along_a_leading_dim_of_an_any_rank_annotation(annotation):
    code = LOSS.replace("ANNOTATION", annotation).replace("DIM", "1")
    assert codes(code) == ["GL004"]
    assert run(code).shape == ()  # every id < 28 fits the 64 positions: no error, the wrong entries


def test_the_same_ids_gathered_along_the_vocabulary_are_silent():
    code = LOSS.replace("ANNOTATION", "... vocab").replace("DIM", "-1")
    assert codes(code) == []
    assert run(code).shape == ()


def test_a_call_that_disagrees_with_a_written_size_keeps_the_annotation():
    from gather_lint.dims import Shape, Sym
    from gather_lint.static.calls import _sized
    declared = Shape((Sym("vocab"), 3), variadic=True)
    assert _sized(declared, Shape((8, 28, 4))) is declared  # 4 is not the written 3
    sized = _sized(declared, Shape((8, 28, 3)))
    assert sized.dims[0] == 8 and sized.dims[1].name == "vocab" and sized.dims[1].size == 28 and not sized.variadic
