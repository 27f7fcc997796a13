"""`unique(dim=d, return_inverse=True)`: the inverse has one slot per slice along d (`[N]` for N rows of
coordinates), as without a dim it has the input's shape. So a per-row index built from it is checked like
any other: unsqueezed and not expanded, a scatter_add_ over [N, C] writes only column 0 (GL009). Torch
confirms against a one-by-one loop."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

FACE_VOTES = """
import torch

def face_votes(outputs, face_ids):
    unique_fids, fids_map = face_ids.unique({DIM}return_inverse=True)
    res = torch.zeros((unique_fids.shape[0], *(outputs[0].shape)), dtype=outputs.dtype)
    res = res.scatter_add_(0, fids_map.unsqueeze(1){EXPAND}, outputs)
    return res, unique_fids, fids_map

face_ids = torch.tensor({IDS})
outputs = torch.randn(6, 4)
res, unique_fids, fids_map = face_votes(outputs, face_ids)
expected = torch.zeros_like(res)
for p in range(6):
    expected[int(fids_map[p])] += outputs[p]
assert {CHECK}
"""

FORMS = [("dim=0, ", "[3, 1, 3, 0, 1, 3]"), ("", "[3, 1, 3, 0, 1, 3]"),
         ("dim=0, ", "[[0, 1], [2, 2], [0, 1], [5, 0], [2, 2], [0, 1]]")]


def _code(dim, ids, expanded):
    return textwrap.dedent(FACE_VOTES.replace("{DIM}", dim).replace("{IDS}", ids)
                           .replace("{EXPAND}", ".expand(-1, outputs.shape[1])" if expanded else "")
                           .replace("{CHECK}", "torch.allclose(res, expected)" if expanded
                                    else "not torch.allclose(res, expected) and bool((res[:, 1:] == 0).all())"))


@pytest.mark.parametrize("dim,ids", FORMS[:2])
def test_an_unexpanded_inverse_writes_only_column_zero(dim, ids):
    code = _code(dim, ids, expanded=False)
    assert (7, "GL009") in [(v.line, v.code) for v in lint(code)]
    run_snippet(code)


@pytest.mark.parametrize("dim,ids", FORMS)
def test_an_expanded_inverse_is_silent(dim, ids):
    code = _code(dim, ids, expanded=True)
    assert [v for v in lint(code) if v.code in ("GL005", "GL009")] == []
    run_snippet(code)
