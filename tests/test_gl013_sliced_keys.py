"""GL013's hint for `x[:, ids] += v`: index_put_ takes no slices, so the hint is index_add_ along the ids' dim,
and the hinted code, run in torch, accumulates every repeated id."""
import re

import pytest

from gather_lint.api import lint_text

from .snippets import run_snippet

HEADER = """
import torch
torch.manual_seed(0)
edges = torch.randint(0, 5, (2, 12))  # 12 ids among 5 nodes: some repeat
"""


@pytest.mark.parametrize("statement,buffer", [
    ("deg[:, edges[0]] += 1.0", "deg = torch.zeros(3, 5)"),
    ("hist[:, :, edges[1]] += weights", "hist = torch.zeros(2, 3, 5); weights = torch.rand(2, 3, 12)"),
    ("deg[:, edges[0]] -= 0.5", "deg = torch.ones(3, 5)"),
])
def test_the_hint_for_a_sliced_key_is_index_add_and_accumulates(statement, buffer, torch):
    code = f"{HEADER}{buffer}\n{statement}\n"
    found = [f for f in lint_text(code, "snippet.py").findings if f.code == "GL013"]
    assert found, code
    hint = re.search(r"accumulate with `([^`]+)`", found[0].message).group(1)
    assert "index_put_" not in hint and ":" not in hint.split("index_add_(")[1].split(",")[0]
    target = statement.split("[")[0]
    # the hinted call, run on a fresh buffer, against a loop that applies every id
    hinted = run_snippet(f"{HEADER}{buffer}\n{hint}\n")
    reference = run_snippet(f"{HEADER}{buffer}\n")
    buf = reference[target]
    dim = statement.split("[")[1].count(":")
    ids = reference["edges"][0 if "edges[0]" in statement else 1]
    sign = -1 if "-=" in statement else 1
    amount = reference["weights"] if "weights" in statement else float(statement.split("=")[-1])
    for position, i in enumerate(ids.tolist()):
        index = [slice(None)] * dim + [i]
        step = amount[tuple([slice(None)] * dim + [position])] if isinstance(amount, torch.Tensor) else amount
        buf[tuple(index)] += sign * step
    assert torch.allclose(hinted[target], buf)
    # and torch's own `+=` loses repeated ids, which is what the finding says
    plain = run_snippet(code)
    assert not torch.allclose(plain[target], buf)


@pytest.mark.parametrize("statement", ["x[1:, ids] += 1.0", "x[..., ids] += 1.0"])
def test_other_sliced_keys_get_a_hint_without_invalid_code(statement):
    code = f"import torch\nx = torch.zeros(3, 5)\nids = torch.randint(0, 5, (8,))\n{statement}\n"
    found = [f for f in lint_text(code, "snippet.py").findings if f.code == "GL013"]
    assert found, code
    assert found[0].message.endswith("accumulate with `index_add_` along the indexed dim, or `index_put_` with "
                                     "`accumulate=True` and a tensor for every dim"), found[0].message
