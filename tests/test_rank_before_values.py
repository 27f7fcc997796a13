"""A subscript with more indices than dims raises on the rank before any value is read: `eig[:, k_ids, :]` on a 2-d
`eig` is one GL001 ('too many indices'), not also a GL004 about the dim the k-point ids would land on, which torch
never reaches. Without the extra index the ids do land on the band dim, and GL004 says so. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import run_snippet

torch = pytest.importorskip("torch")

EIG_LOSS = """
import torch

def eig_loss(eig_pred, eig_label, k_diff):
    # eig_pred: [n_kpt, n_band]  eig_label: [n_kpt, n_band]
    k_ids = torch.randint(0, eig_pred.shape[0], (k_diff,))
    diff = eig_pred[:, k_ids, :] - eig_label[:, k_ids, :]
    return diff.abs().mean()
"""


def test_too_many_indices_is_one_finding_per_subscript():
    found = lint(EIG_LOSS)
    assert [(f.code, f.line) for f in found] == [("GL001", 7), ("GL001", 7)]
    loss = run_snippet(EIG_LOSS)["eig_loss"]
    with pytest.raises(IndexError, match="too many indices"):
        loss(torch.randn(61, 20), torch.randn(61, 20), 8)


def test_without_the_extra_index_the_ids_land_on_the_band_dim():
    code = EIG_LOSS.replace("[:, k_ids, :]", "[:, k_ids]")
    found = lint(code)
    assert [f.code for f in found] == ["GL004", "GL004"]
    loss = run_snippet(code)["eig_loss"]
    torch.manual_seed(0)
    with pytest.raises(IndexError, match="out of bounds"):
        loss(torch.randn(61, 20), torch.randn(61, 20), 64)  # k-point ids up to 60 on 20 bands
