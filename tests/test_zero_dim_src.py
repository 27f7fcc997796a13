"""GL003: a 0-d src counts as [1] against a 1-d index (torch's 0-d ≡ 1-d): one document's weight, picked out of
a weights vector, cannot be scattered to every term of the document. Checked in torch."""
import textwrap

import pytest

from .conftest import codes

DOC_FREQ = """
import torch
from jaxtyping import Float, Int
from torch import Tensor

def document_frequency(docs: list[Int[Tensor, " doc_len"]], weights: Float[Tensor, " num_docs"], vocab: int):
    df = torch.zeros(vocab)
    for tokens, weight in zip(docs, weights):
        terms: Int[Tensor, " {TERMS}"] = torch.unique(tokens)
        df.scatter_add_(0, terms, {SRC})
    return df

if __name__ == "__main__":
    docs = [torch.tensor([{FIRST}]), torch.tensor([{SECOND}])]
    df = document_frequency(docs, torch.tensor([1.0, 0.5]), 10)
"""


def test_a_zero_dim_weight_for_every_term_raises(torch):
    code = DOC_FREQ.format(TERMS="n_terms", SRC="weight", FIRST="3, 1, 4, 1", SECOND="4, 2")
    assert codes(code) == ["GL003"]
    with pytest.raises(RuntimeError, match="no larger size than src"):
        exec(textwrap.dedent(code), {"__name__": "__main__"})


@pytest.mark.parametrize("terms, src, first, second", [
    ("n_terms", "weight.expand(terms.shape)", "3, 1, 4, 1", "4, 2"),  # the fix
    ("1", "weight", "3", "4"),  # one term each: a 0-d src is a [1] src
])
def test_an_expanded_or_one_to_one_src_is_silent(terms, src, first, second, torch):
    code = DOC_FREQ.format(TERMS=terms, SRC=src, FIRST=first, SECOND=second)
    assert codes(code) == []
    exec(textwrap.dedent(code), {"__name__": "__main__"})
