"""A library's width-1 head (no driver reads the file whole): the methods calling `self.<head>(` are read,
so a value head's [B, 1] column meeting per-row returns [B] inside the class is reported (GL006) as in a
script. Torch is the oracle: the mean runs over [B, B], not over the B per-row errors.
"""
from .conftest import lint
from .snippets import run_snippet

LIBRARY = """
    import torch
    import torch.nn as nn

    class ValueModel(nn.Module):
        def __init__(self, obs_dim, hidden):
            super().__init__()
            self.body = nn.Linear(obs_dim, hidden)
            self.value_head = nn.Linear(hidden, 1)

        def value_loss(self, obs, returns):
            # obs: [B, O], returns: [B]
            values = self.value_head(torch.tanh(self.body(obs)))
            return ((values - returns) ** 2).mean()
"""

CHECK = """
    torch.manual_seed(0)
    model = ValueModel(4, 8)
    obs, returns = torch.randn(5, 4), torch.randn(5)
    out = model.value_loss(obs, returns)
    with torch.no_grad():
        values = model.value_head(torch.tanh(model.body(obs))).squeeze(-1)
        expected = ((values - returns) ** 2).mean()
"""


def test_value_head_column_in_a_library_class_is_reported(torch):
    found = [f for f in lint(LIBRARY) if f.code == "GL006"]
    assert [f.line for f in found] == [14], [f"{f.line}: {f.message}" for f in lint(LIBRARY)]
    scope = run_snippet(LIBRARY + CHECK)
    assert not torch.allclose(scope["out"], scope["expected"])


def test_squeezed_value_head_stays_silent(torch):
    fixed = LIBRARY.replace("self.value_head(torch.tanh(self.body(obs)))", "self.value_head(torch.tanh(self.body(obs))).squeeze(-1)")
    assert lint(fixed) == []
    scope = run_snippet(fixed + CHECK)
    assert torch.allclose(scope["out"], scope["expected"])
