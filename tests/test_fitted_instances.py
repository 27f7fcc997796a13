"""An instance returned by `fit` (`Voter(k=6).fit(bank, labels)`) carries what fit stored, so a later
method runs on the fitted bank: asked for more neighbours than the bank holds, the search pads
with -1 and advanced indexing wraps it to the last label (GL010). Torch shows the wrap; a bank with
enough rows, or a fit that clamps k, stays silent and reads no padding. A `voter.fit(...)` statement
counts too, in straight-line code."""
import textwrap

import pytest

from .conftest import codes, lint

VOTER = """
import torch
import torch.nn.functional as F


def nearest(queries, bank, k):
    scores = queries @ bank.T
    n = min(k, bank.size(0))
    top = scores.topk(n, dim=-1).indices
    if n < k:
        top = F.pad(top, (0, k - n), value=-1)  # missing neighbours, as an ANN index reports them
    return top


class NeighbourVote:
    def __init__(self, k=5):
        self.k = k

    def fit(self, feats, labels):
        self.bank = F.normalize(feats, dim=-1)
        self.bank_labels = labels
        return self

    def predict(self, feats):
        ids = nearest(F.normalize(feats, dim=-1), self.bank, self.k)
        votes = self.bank_labels[ids]  # expect
        return votes.mode(dim=-1).values


if __name__ == "__main__":
    bank = torch.randn(4, 8)
    voter = NeighbourVote(k=6).fit(bank, torch.tensor([0, 1, 1, 2]))
    print(voter.predict(torch.randn(3, 8)))
"""

# the same search padding with torch.cat and torch.full
CAT_PADDING = VOTER.replace(
    "top = F.pad(top, (0, k - n), value=-1)",
    "top = torch.cat([top, torch.full((top.shape[0], k - n), -1, dtype=top.dtype)], dim=-1)")


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def expected(code: str):
    return [(n, "GL010") for n, text in enumerate(code.splitlines(), 1) if text.endswith("# expect")]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


@pytest.mark.parametrize("program", [VOTER, CAT_PADDING], ids=["F.pad", "torch.cat"])
def test_padding_of_a_search_past_the_fitted_bank_is_reported_and_torch_wraps_it(program, torch):
    assert findings(program) == expected(program)
    scope = run(program)
    labels = torch.tensor([0, 1, 1, 2])
    voter = scope["NeighbourVote"](k=6).fit(torch.randn(4, 8), labels)
    ids = scope["nearest"](torch.randn(3, 8), voter.bank, voter.k)
    assert (ids[:, 4:] == -1).all()
    assert (voter.bank_labels[ids][:, 4:] == labels[-1]).all()  # no error: the last label, read twice a row


@pytest.mark.parametrize("old, new", [
    # a bank with more rows than k: the padding branch never runs
    ("NeighbourVote(k=6)", "NeighbourVote(k=3)"),
    # fit clamps k to the bank
    ("        self.bank_labels = labels\n", "        self.bank_labels = labels\n        self.k = min(self.k, feats.shape[0])\n"),
])
def test_a_search_the_bank_can_fill_stays_silent_and_reads_no_padding(old, new, torch):
    program = VOTER.replace(old, new)
    assert program != VOTER
    assert findings(program) == []
    scope = run(program)
    k = 3 if "k=3" in new else 6
    voter = scope["NeighbourVote"](k=k).fit(torch.randn(4, 8), torch.tensor([0, 1, 1, 2]))
    assert (scope["nearest"](torch.randn(3, 8), voter.bank, voter.k) >= 0).all()


def test_an_instance_fitted_by_a_statement_is_followed_in_straight_line_code(torch):
    program = VOTER.replace("voter = NeighbourVote(k=6).fit(bank, torch.tensor([0, 1, 1, 2]))",
                            "voter = NeighbourVote(k=6)\n    voter.fit(bank, torch.tensor([0, 1, 1, 2]))")
    assert findings(program) == expected(program)


@pytest.mark.parametrize("fitting", [
    # in a loop: each pass may fit another bank
    "voter = NeighbourVote(k=6)\n    for part in (bank, bank):\n        voter.fit(part, torch.tensor([0, 1, 1, 2]))",
    # in a branch: the fit may not run
    "voter = NeighbourVote(k=6)\n    if bank.sum() > 0:\n        voter.fit(bank, torch.tensor([0, 1, 1, 2]))",
])
def test_a_fit_in_a_loop_or_a_branch_is_not_followed(fitting):
    program = VOTER.replace("voter = NeighbourVote(k=6).fit(bank, torch.tensor([0, 1, 1, 2]))", fitting)
    assert findings(program) == []


def test_a_bank_that_another_method_grows_is_not_kept_from_fit():
    grows = VOTER.replace("    def predict(self, feats):", """    def add(self, feats, labels):
        self.bank = torch.cat([self.bank, F.normalize(feats, dim=-1)])
        self.bank_labels = torch.cat([self.bank_labels, labels])

    def predict(self, feats):""")
    assert findings(grows) == []  # the bank predict reads may have grown past k since fit


# a request record whose generated ids are set after it is built: the method reading them sees them
REQUEST = """
import torch
from dataclasses import dataclass, field
from torch import nn

IMAGE_ID = 9

@dataclass
class Request:
    prompt_ids: list
    output_ids: list = field(default_factory=list)

class Merger(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(16, 4)

    def merge(self, req, feats):
        ids = torch.tensor(req.prompt_ids + req.output_ids)
        embeds = self.embed(ids)
        positions = (ids == IMAGE_ID).nonzero()
        return embeds.scatter(0, positions.expand(-1, 4), feats)

if __name__ == "__main__":
    req = Request(prompt_ids=[1, 9, 9, 3])
    req.output_ids = OUTPUT
    with torch.no_grad():
        out = Merger().merge(req, torch.randn(2, 4))
"""


def test_ids_set_on_a_record_after_it_is_built_are_read_by_its_consumer(torch):
    from .snippets import run_snippet
    generated = REQUEST.replace("OUTPUT", "[11, 9]")  # a placeholder id generated: 3 positions, 2 feature rows
    with pytest.raises(RuntimeError, match="no larger"):
        run_snippet(generated)
    assert codes(generated) == ["GL003"]
    plain = REQUEST.replace("OUTPUT", "[11, 4]")
    assert run_snippet(plain)["out"].shape == (6, 4)
    assert codes(plain) == []
