"""Runtime GL007: the ids a model was just fed, scored by the logits computed at their own positions.

Each program runs in plain torch first (the oracle: the score it computes is not the next-token score
the correct pairing gives), then checked: a GL007 warning at the scoring line for the unshifted pairing,
silence for the shifted one, for a masked LM's labels, for logits shifted right instead of labels, and
for labels shifted where they are made. Layouts vary: a module with forward and a helper, a plain
function over an embedding table, a loss over [N, V] or [B, V, T] scores, take_along_dim.
"""
import textwrap
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintWarning, checked  # noqa: E402
from .snippets import SNIPPET_FILE, run_snippet  # noqa: E402

CAUSAL_GRU = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class Decoder(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.cell = nn.GRU(width, width, batch_first=True)
        self.out = nn.Linear(width, vocab)

    def forward(self, seq):
        states, _ = self.cell(self.tokens(seq))
        return self.out(states)

torch.manual_seed(3)
net = Decoder(23, 8)
seq = torch.randint(1, 23, (3, 7))
logits = net(seq)
lp = logits.log_softmax(-1)
reference = torch.stack([torch.stack([lp[b, t, seq[b, t + 1]] for t in range(6)]) for b in range(3)])
"""

PLAIN_TABLE = """
import torch
import torch.nn.functional as F

def score_tokens(table, head, ids):
    hidden = F.embedding(ids, table).cumsum(dim=1)  # position t sees tokens 0..t
    return hidden @ head.T

torch.manual_seed(5)
table = torch.randn(31, 6)
head = torch.randn(31, 6)
ids = torch.randint(0, 31, (2, 9))
logits = score_tokens(table, head, ids)
reference = F.cross_entropy(logits[:, :-1].reshape(-1, 31), ids[:, 1:].reshape(-1))
"""


def caught_codes(program: str):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with checked():
            scope = run_snippet(program)
    return scope, [w for w in caught if issubclass(w.category, GatherLintWarning)]


def gl007(found):
    return [w for w in found if "GL007" in str(w.message)]


UNSHIFTED = {
    "module, gather in a helper": CAUSAL_GRU + """
def token_logprobs(scores, targets):
    return scores.log_softmax(-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)

out = token_logprobs(logits, seq)[:, 1:]
""",
    "module, take_along_dim": CAUSAL_GRU + """
out = torch.take_along_dim(lp, seq[..., None], dim=2).squeeze(2)[:, 1:]
""",
    "module, labels masked over a prompt": CAUSAL_GRU + """
labels = seq.clone()
labels[:, :3] = -100
picked = lp.gather(2, labels.clamp(min=0).unsqueeze(2)).squeeze(2)
out = picked[:, 3:]
reference = reference[:, 2:]
""",
    "module, a continuation cut from the whole sequence's log-probs": CAUSAL_GRU + """
answer = seq[:, 4:]
out = lp[:, 4:].gather(-1, answer.unsqueeze(-1)).squeeze(-1)
reference = reference[:, 3:]
""",
    "plain function, one row's continuation": PLAIN_TABLE + """
row_lp = logits[1].log_softmax(-1)
def continuation_score(row_scores, cont, start):
    return row_scores[start:].gather(-1, cont.unsqueeze(-1)).squeeze(-1)
out = continuation_score(row_lp, ids[1, 5:], 5)
reference = torch.stack([row_lp[t - 1, ids[1, t]] for t in range(5, 9)])
""",
    "plain function, cross_entropy over [N, V]": PLAIN_TABLE + """
out = F.cross_entropy(logits.reshape(-1, 31), ids.reshape(-1))
""",
    "plain function, nll_loss over [B, V, T]": PLAIN_TABLE + """
out = F.nll_loss(logits.transpose(1, 2).log_softmax(dim=1), ids)
""",
    "plain function, labels with the ignore index over a prompt": PLAIN_TABLE + """
targets = ids.clone()
targets[:, :4] = -100
out = F.cross_entropy(logits.view(-1, 31), targets.view(-1))
reference = F.cross_entropy(logits[:, 3:-1].reshape(-1, 31), ids[:, 4:].reshape(-1))
""",
}


@pytest.mark.parametrize("name", list(UNSHIFTED))
def test_unshifted_pairing_gl007(name):
    program = UNSHIFTED[name]
    plain = run_snippet(program)  # the oracle: not the next-token score
    assert plain["out"].shape == plain["reference"].shape
    assert not torch.allclose(plain["out"], plain["reference"], atol=1e-4)
    scope, found = caught_codes(program)
    assert torch.equal(scope["out"], plain["out"])  # the check changes nothing
    hits = gl007(found)
    assert len(hits) == 1, [str(w.message) for w in found]
    assert "predict token t+1" in str(hits[0].message) and "ids[..., 1:]" in str(hits[0].message)


SHIFTED = {
    "gather of logits[:, :-1] with ids[:, 1:]": CAUSAL_GRU + """
out = lp[:, :-1].gather(-1, seq[:, 1:].unsqueeze(-1)).squeeze(-1)
""",
    "a continuation scored by the logits one position earlier": CAUSAL_GRU + """
out = lp[:, 3:-1].gather(-1, seq[:, 4:].unsqueeze(-1)).squeeze(-1)
""",
    "labels shifted where they are made, padded with the ignore index": PLAIN_TABLE + """
labels = torch.cat([ids[:, 1:], torch.full((2, 1), -100)], dim=1)
out = F.cross_entropy(logits.reshape(-1, 31), labels.reshape(-1))
""",
    "logits shifted right with a pad in front": CAUSAL_GRU + """
moved = F.pad(logits.transpose(1, 2), (1, -1), value=0.0).transpose(1, 2)
out = moved.log_softmax(-1).gather(-1, seq.unsqueeze(-1)).squeeze(-1)[:, 1:]
""",
    "masked LM: labels at the masked positions, masked inputs fed": """
import torch
import torch.nn.functional as F
torch.manual_seed(1)
table, head = torch.randn(40, 8), torch.randn(40, 8)
original = torch.randint(1, 39, (3, 10))
masked = original.clone()
chosen = torch.rand(3, 10) < 0.3
chosen[:, 0] = True
masked[chosen] = 39  # the [MASK] id
labels = torch.where(chosen, original, torch.full_like(original, -100))
logits = F.embedding(masked, table) @ head.T
out = F.cross_entropy(logits.view(-1, 40), labels.view(-1))
""",
    "padding repeated in the shifted labels": PLAIN_TABLE + """
ids[:, 3:] = 0
logits = score_tokens(table, head, ids)
labels = torch.cat([ids[:, 1:], torch.zeros(2, 1, dtype=torch.long)], dim=1)
out = logits.log_softmax(-1).gather(-1, labels.unsqueeze(-1))
""",
    "one token at a time (generation)": """
import torch
import torch.nn.functional as F
torch.manual_seed(2)
table = torch.randn(17, 4)
token = torch.randint(0, 17, (2, 1))
for _ in range(4):
    logits = F.embedding(token, table) @ table.T
    lp = logits.log_softmax(-1)
    token = lp.argmax(-1)
    out = lp.gather(-1, token.unsqueeze(-1))
""",
    "ids changed in place after the lookup": PLAIN_TABLE + """
ids[:, 0] = 0
out = F.cross_entropy(logits.reshape(-1, 31), ids.reshape(-1))
""",
}


@pytest.mark.parametrize("name", list(SHIFTED))
def test_shifted_or_position_free_scoring_stays_silent(name):
    scope, found = caught_codes(SHIFTED[name])
    assert not gl007(found), [str(w.message) for w in found]
    assert "out" in scope


def test_warning_points_at_the_scoring_line_once_per_site():
    program = CAUSAL_GRU + textwrap.dedent("""
    for _ in range(3):
        out = lp.gather(-1, seq.unsqueeze(-1))
    """)
    _, found = caught_codes(program)
    hits = gl007(found)
    assert hits and all(w.filename == SNIPPET_FILE for w in hits)
    assert len({w.lineno for w in hits}) == 1


def test_raise_mode_does_not_stop_a_silent_mistake():
    from gather_lint.runtime import checking

    with warnings.catch_warnings(record=True) as caught, checking("raise"):
        warnings.simplefilter("always")
        scope = run_snippet(UNSHIFTED["plain function, cross_entropy over [N, V]"])
    assert "out" in scope and gl007([w for w in caught if issubclass(w.category, GatherLintWarning)])


# --- masked_scatter with fewer source values than selected positions (GL003) -----------------------

def _torch_error(fn):
    with pytest.raises(Exception) as caught:
        fn()
    return type(caught.value), str(caught.value)


def _placeholders(per_clip: int, frames: int):
    """Token embeddings [1, T, D] with `per_clip` placeholder positions, and `frames` encoder rows."""
    embeds = torch.zeros(1, 10, 4)
    ids = torch.zeros(1, 10, dtype=torch.long)
    ids[0, 2:2 + per_clip] = 7
    return embeds, ids == 7, torch.randn(frames, 4)


MASKED_FORMS = {
    "method, mask expanded over the features": lambda e, m, s: e.masked_scatter(m.unsqueeze(-1).expand_as(e), s),
    "method, mask broadcast from [1, T, 1]": lambda e, m, s: e.masked_scatter(m.unsqueeze(-1), s),
    "function": lambda e, m, s: torch.masked_scatter(e, m.unsqueeze(-1), s),
    "in place on a clone": lambda e, m, s: e.clone().masked_scatter_(m.unsqueeze(-1), s),
}


@pytest.mark.parametrize("form", list(MASKED_FORMS))
def test_masked_scatter_with_too_few_source_values_gl003(form):
    call = MASKED_FORMS[form]
    kind, text = _torch_error(lambda: call(*_placeholders(per_clip=6, frames=5)))
    assert kind is RuntimeError and "Number of elements of source < number of ones in mask" in text
    with checked(), pytest.raises(RuntimeError, match=r"(?s)GL003 .*selects 24 positions .*has only 20 values.*"
                                  r"Number of elements of source < number of ones in mask"):
        call(*_placeholders(per_clip=6, frames=5))


@pytest.mark.parametrize("form", list(MASKED_FORMS))
@pytest.mark.parametrize("frames", [6, 9])
def test_masked_scatter_with_enough_source_values_stays_silent(form, frames):
    call = MASKED_FORMS[form]
    torch.manual_seed(0)
    plain = call(*_placeholders(per_clip=6, frames=frames))
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with checked():
            got = call(*_placeholders(per_clip=6, frames=frames))
    assert torch.equal(got, plain)


def test_masked_scatter_in_a_module_reports_at_the_merge_line():
    program = """
import torch
import torch.nn as nn

class Merger(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Conv1d(3, 4, kernel_size=3, stride=2)

    def forward(self, embeds, is_slot, signal):
        frames = self.down(signal).transpose(1, 2).reshape(-1, 4)  # (L - 3) // 2 + 1 frames
        return embeds.masked_scatter(is_slot[..., None], frames)

embeds = torch.zeros(1, 12, 4)
is_slot = torch.zeros(1, 12, dtype=torch.bool)
is_slot[0, 1:1 + 20 // 2] = True  # counts L // 2 slots: one more than the convolution makes
out = Merger()(embeds, is_slot, torch.randn(1, 3, 20))
"""
    kind, _ = _torch_error(lambda: run_snippet(program))
    assert kind is RuntimeError
    with checked(), pytest.raises(RuntimeError, match=r"GL003 .*selects 40 positions .*has only 36 values") as info:
        run_snippet(program)
    assert any(frame.filename == SNIPPET_FILE and frame.lineno == 12 for frame in __import__("traceback").extract_tb(info.tb))
