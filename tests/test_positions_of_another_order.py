"""GL034: positions picked in a tensor's own order (a multinomial draw, an argmax, top-k indices) index a sorted
copy of it. Each flagged program reads other entries than its loop reference in torch; each silent one matches."""
import pytest

from .conftest import lint
from .snippets import run_program

PICKS = {
    "multinomial": "torch.multinomial(scores.softmax(-1), 1).squeeze(-1)",
    "argmax": "scores.argmax(dim=-1)",
    "top-1 indices": "scores.topk(1, dim=-1).indices.squeeze(-1)",
    "max indices": "scores.max(dim=1)[1]",
}

READS = {
    "gather": "sorted_logprobs.gather(-1, picks.unsqueeze(-1)).squeeze(-1)",
    "take_along_dim": "torch.take_along_dim(sorted_logprobs, picks[:, None], dim=1).squeeze(1)",
    "keyword gather": "torch.gather(sorted_logprobs, dim=1, index=picks.view(-1, 1))[:, 0]",
}

PROGRAM = """
import torch


def pick(scores):
    return PICK


def picked_logprobs(scores, picks):
    logprobs = torch.log_softmax(scores, dim=-1)
    sorted_logprobs, order = logprobs.sort(dim=-1, descending=True)
    return READ


if __name__ == "__main__":
    torch.manual_seed(0)
    scores = torch.randn(6, 20)
    picks = pick(scores)
    RESULT = picked_logprobs(scores, picks), torch.stack([scores[i].log_softmax(-1)[picks[i]] for i in range(6)])
"""


@pytest.mark.parametrize("read", sorted(READS))
@pytest.mark.parametrize("pick", sorted(PICKS))
def test_positions_picked_in_the_original_order_read_from_the_sorted_row(pick, read, torch):
    program = PROGRAM.replace("PICK", PICKS[pick]).replace("READ", READS[read])
    assert [f.code for f in lint(program)] == ["GL034"]
    got, expected = run_program(program)
    assert not torch.allclose(got, expected)


@pytest.mark.parametrize("pick", sorted(PICKS))
def test_the_same_positions_read_from_the_unsorted_row_are_silent(pick, torch):
    program = PROGRAM.replace("PICK", PICKS[pick]).replace("READ", READS["gather"].replace("sorted_logprobs", "logprobs"))
    assert lint(program) == []
    got, expected = run_program(program)
    assert torch.allclose(got, expected)


NUCLEUS = """
import torch


def nucleus_sample(logits, top_p):
    sorted_logits, sorted_ids = logits.sort(dim=-1, descending=True)
    cumulative = sorted_logits.softmax(-1).cumsum(-1)
    sorted_logits = sorted_logits.masked_fill(cumulative - sorted_logits.softmax(-1) > top_p, float("-inf"))
    ranks = torch.multinomial(sorted_logits.softmax(-1), 1)
    return sorted_ids.gather(-1, ranks).squeeze(-1), sorted_logits.log_softmax(-1).gather(-1, ranks).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(3, 12)
    tokens, logps = nucleus_sample(logits, 0.9)
    RESULT = logits, tokens, logps
"""


def test_positions_drawn_from_the_sorted_row_read_it_silently(torch):
    assert lint(NUCLEUS) == []
    logits, tokens, logps = run_program(NUCLEUS)
    assert tokens.shape == (3,) and torch.isfinite(logps).all()  # a kept token's own log-probability


# the mirror mistake: a nucleus mask built in the sorted order fills the tensor that was sorted
FILLS = {
    "masked_fill": "filtered = logits.masked_fill(remove, -1e9)",
    "masked_fill keyword value": "filtered = logits.masked_fill(remove, value=-1e9)",
    "torch.masked_fill": "filtered = torch.masked_fill(logits, remove, -1e9)",
    "subscript write": "logits[remove] = -1e9\n    filtered = logits",
}

NUCLEUS_FILL = """
import torch


def top_p(logits, p):
    sorted_logits, sorted_idx = torch.sort(logits, dim=-1, descending=True)
    remove = sorted_logits.softmax(-1).cumsum(-1) > p
    {back}
    {fill}
    return filtered


def reference(logits, p):
    out = logits.clone()
    for b in range(logits.shape[0]):
        probs = logits[b].softmax(-1).tolist()
        order = sorted(range(len(probs)), key=lambda v: -probs[v])
        total = 0.0
        for v in order:
            total += probs[v]
            if total > p:
                out[b, v] = -1e9
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    scores = torch.randn(3, 12) * 2
    RESULT = top_p(scores.clone(), 0.6), reference(scores, 0.6)
"""


def _nucleus(fill: str, back: str = "pass") -> str:
    return NUCLEUS_FILL.replace("{fill}", fill).replace("{back}", back)


@pytest.mark.parametrize("fill", list(FILLS))
def test_a_mask_in_the_sorted_order_filling_the_unsorted_tensor_is_reported(fill, torch):
    program = _nucleus(FILLS[fill])
    assert [v.code for v in lint(program)] == ["GL034"]
    got, expected = run_program(program)
    assert not torch.equal(got, expected)  # other vocabulary positions were filled


@pytest.mark.parametrize("fill", list(FILLS))
def test_the_mask_scattered_back_first_is_silent(fill, torch):
    program = _nucleus(FILLS[fill], "remove = remove.scatter(1, sorted_idx, remove)")
    assert lint(program) == []
    got, expected = run_program(program)
    assert torch.equal(got, expected)
