"""Runtime checks of silent mistakes that only the values show: labels shifted twice (GL007) and reads of
positions the data marks as padding (GL024).

Each program runs in plain torch first (the oracle: the result differs from the correct one), then checked:
one warning with the code, at the program's marked line, and the result unchanged; the correct form and
valid variants with the same values run silent.
"""
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintWarning, checked  # noqa: E402

from .snippets import SNIPPET_FILE, expected_lines, run_snippet  # noqa: E402


def checked_run(program: str):
    """The program's globals under warn-mode checks, and the GatherLintWarnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with checked("warn"):
            scope = run_snippet(program)
    return scope, [w for w in caught if issubclass(w.category, GatherLintWarning)]


def reported_once(program: str, code: str):
    """Exactly one warning, with `code`, at the line marked `# expect`; (plain scope, checked scope, warning)."""
    plain = run_snippet(program)
    scope, found = checked_run(program)
    assert len(found) == 1, [str(w.message) for w in found]
    warning = found[0]
    assert str(warning.message).startswith(code), str(warning.message)
    assert warning.filename == SNIPPET_FILE and [warning.lineno] == expected_lines(program)
    return plain, scope, warning


def assert_silent(program: str):
    scope, found = checked_run(program)
    assert not found, [str(w.message) for w in found]
    return scope


# --- GL007: labels shifted twice ----------------------------------------------------------------

CAUSAL_LM = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class TinyLM(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.cell = nn.GRU(width, width, batch_first=True)
        self.head = nn.Linear(width, vocab)

    def forward(self, input_ids):
        states, _ = self.cell(self.embed(input_ids))
        return self.head(states)

def causal_lm_loss(logits, labels):
    # logits [B, T, V], labels [B, T]: the loss drops the last logits and the first label
    shift_logits = logits[:, :-1, :].reshape(-1, logits.size(-1))
    shift_labels = labels[:, 1:].reshape(-1)
    return F.cross_entropy(shift_logits, shift_labels, ignore_index=-100)

torch.manual_seed(0)
model = TinyLM(29, 8)
input_ids = torch.randint(0, 29, (3, 9))
logits = model(input_ids)
next_token = F.cross_entropy(logits[:, :-1].reshape(-1, 29), input_ids[:, 1:].reshape(-1))
"""

SHIFTED_BY_THE_PIPELINE = CAUSAL_LM.replace("ignore_index=-100)", "ignore_index=-100)  # expect") + """
labels = torch.cat([input_ids[:, 1:], torch.full((3, 1), -100)], dim=1)  # already next-token labels
loss = causal_lm_loss(logits, labels)
"""


def test_labels_shifted_twice_are_scored_against_the_token_after_next():
    plain, scope, warning = reported_once(SHIFTED_BY_THE_PIPELINE, "GL007")
    assert not torch.allclose(plain["loss"], plain["next_token"])  # torch: another loss than the next-token one
    ids = plain["input_ids"]
    after_next = F_cross_entropy(plain["logits"][:, :-2], ids[:, 2:])
    assert torch.allclose(plain["loss"], after_next)  # position t was scored against token t+2
    assert torch.equal(scope["loss"], plain["loss"])  # the check changes nothing
    text = str(warning.message)
    assert "two positions ahead" in text and "shifted twice" in text and "ids[..., 1:]" in text


def F_cross_entropy(logits, targets):
    return torch.nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))


def test_labels_shifted_twice_in_a_gather():
    program = CAUSAL_LM + """
labels = torch.cat([input_ids[:, 1:], torch.zeros(3, 1, dtype=torch.long)], dim=1)  # shifted, padded with 0
logp = logits.log_softmax(-1)
picked = logp[:, :-1].gather(-1, labels[:, 1:].unsqueeze(-1)).squeeze(-1)  # expect
wanted = logp[:, :-1].gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
"""
    plain, scope, warning = reported_once(program, "GL007")
    assert not torch.allclose(plain["picked"], plain["wanted"])
    assert torch.equal(scope["picked"], plain["picked"])
    assert "token after next" in str(warning.message)


def test_next_token_loss_on_the_ids_is_silent():
    scope = assert_silent(CAUSAL_LM + """
loss = causal_lm_loss(logits, input_ids)
""")
    assert torch.allclose(scope["loss"], scope["next_token"])


def test_labels_shifted_once_in_the_pipeline_against_unsliced_logits_are_silent():
    scope = assert_silent(CAUSAL_LM + """
labels = torch.cat([input_ids[:, 1:], torch.full((3, 1), -100)], dim=1)
loss = F.cross_entropy(logits.reshape(-1, 29), labels.reshape(-1), ignore_index=-100)
""")
    assert torch.allclose(scope["loss"], scope["next_token"])


def test_repeated_tokens_that_fit_both_shifts_stay_silent():
    """A sequence of one token repeated (padding) agrees with the ids one and two ahead: no evidence."""
    assert_silent(CAUSAL_LM + """
input_ids = torch.tensor([[4, 4, 4, 4, 4, 4, 7, 7, 7], [2, 2, 2, 2, 2, 2, 2, 2, 2], [5, 5, 5, 5, 5, 5, 5, 5, 5]])
logits = model(input_ids)
loss = causal_lm_loss(logits, input_ids)
""")
