"""GL013 for `buf[rows, ids] = v` where `rows` is a row number spread along the rows (`arange(B)[:, None]`,
`arange(B).unsqueeze(1).expand_as(ids)`) and ids [B, S] are id sequences: the row number tells rows apart,
not the entries of one row, so a token that appears twice in a row keeps one of its values."""
import pytest

from .conftest import lint
from .snippets import run_snippet

COPY_DISTRIBUTION = '''
import torch


class CopyHead:
    def __init__(self, vocab):
        self.vocab = vocab

    def mix(self, attn, source_ids):
        """
        Args:
            attn: [B, S]
            source_ids: [B, S]
        """
        out = torch.zeros(attn.size(0), self.vocab)
        rows = torch.arange(attn.size(0))[:, None]
        out[rows, source_ids] = attn
        return out


if __name__ == "__main__":
    attn = torch.tensor([[0.5, 0.25, 0.25], [0.2, 0.3, 0.5]])
    ids = torch.tensor([[4, 1, 4], [0, 2, 3]])
    mixed = CopyHead(6).mix(attn, ids)
'''

WRITE = "        out[rows, source_ids] = attn"


def test_row_numbers_with_id_sequences_overwrite_repeats():
    found = [f for f in lint(COPY_DISTRIBUTION) if f.code == "GL013"]
    assert len(found) == 1, [(f.code, f.message) for f in lint(COPY_DISTRIBUTION)]
    assert found[0].line == COPY_DISTRIBUTION.splitlines().index(WRITE) + 1


def test_torch_a_repeated_token_keeps_one_of_its_weights(torch):
    mixed = run_snippet(COPY_DISTRIBUTION)["mixed"]
    assert torch.isclose(mixed[0].sum(), torch.tensor(0.75)) or torch.isclose(mixed[0].sum(), torch.tensor(0.5))
    assert torch.isclose(mixed[1].sum(), torch.tensor(1.0))  # no repeat in the second row


@pytest.mark.parametrize("code", [
    COPY_DISTRIBUTION.replace(WRITE, "        out.index_put_((rows.expand_as(source_ids), source_ids), attn, accumulate=True)"),
    COPY_DISTRIBUTION.replace(WRITE, "        out[rows, source_ids] = 1.0"),  # presence marks: equal values
    COPY_DISTRIBUTION.replace("out = torch.zeros(attn.size(0), self.vocab)", "out = torch.rand(attn.size(0), self.vocab)"),
    # one id per row: the row number makes every position distinct
    COPY_DISTRIBUTION.replace("rows = torch.arange(attn.size(0))[:, None]", "rows = torch.arange(attn.size(0))")
    .replace(WRITE, "        out[rows, source_ids[:, 0]] = attn[:, 0]"),
], ids=["accumulate", "marks", "not-a-fresh-buffer", "one-per-row"])
def test_accumulated_marked_or_distinct_writes_stay_silent(code, torch):
    assert "GL013" not in [f.code for f in lint(code)]
    run_snippet(code)
