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


@pytest.fixture(autouse=True)
def fresh_site_texts():
    """Every program here runs as <snippet>: the runtime keeps the first text warned at a (code, file, line),
    so a line one test warned at would show that test's text in the next."""
    from gather_lint.runtime import reporting

    reporting._SITE_TEXT.clear()
    yield
    reporting._SITE_TEXT.clear()


def run_file(program: str, path) -> dict:
    """The program's globals, run as the file `path` (written first: its source lines can be read back)."""
    path.write_text(program)
    scope: dict = {"__name__": "__main__"}
    exec(compile(program, str(path), "exec"), scope)
    return scope


def checked_run(program: str, path=None):
    """The program's globals under warn-mode checks (run as the file `path` when given), and the
    GatherLintWarnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with checked("warn"):
            scope = run_snippet(program) if path is None else run_file(program, path)
    return scope, [w for w in caught if issubclass(w.category, GatherLintWarning)]


def reported_once(program: str, code: str, path=None):
    """Exactly one warning, with `code`, at the line marked `# expect`; (plain scope, checked scope, warning)."""
    plain = run_snippet(program)
    scope, found = checked_run(program, path)
    assert len(found) == 1, [str(w.message) for w in found]
    warning = found[0]
    assert str(warning.message).startswith(code), str(warning.message)
    assert warning.filename == (SNIPPET_FILE if path is None else str(path))
    assert [warning.lineno] == expected_lines(program)
    return plain, scope, warning


def silent_in(path, program: str):
    """assert_silent, run as the file `path` (for checks that read the user's source line)."""
    return assert_silent(program, path)


def assert_silent(program: str, path=None):
    scope, found = checked_run(program, path)
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


# --- GL024: reads of positions the data marks as padding ------------------------------------------

PADDED_BY_EMBEDDING = """
import torch
import torch.nn as nn

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(30, 6, padding_idx=0)
        self.mix = nn.Linear(6, 6)

    def forward(self, ids):
        # a causal running mean: position t sees tokens 0..t
        h = self.embed(ids).cumsum(1) / torch.arange(1, ids.size(1) + 1).view(1, -1, 1)
        return torch.tanh(self.mix(h))

torch.manual_seed(0)
model = Encoder()
seqs = [torch.tensor([5, 9, 2, 7, 3]), torch.tensor([4, 8]), torch.tensor([6, 1, 11])]
lengths = torch.tensor([len(s) for s in seqs])
ids = torch.zeros(3, 5, dtype=torch.long)
for i, s in enumerate(seqs):
    ids[i, :len(s)] = s  # right padding with the padding_idx
alone = torch.stack([model(s[None])[0, -1] for s in seqs])  # each sequence's last state, one at a time
"""


def test_last_position_of_a_right_padded_batch():
    program = PADDED_BY_EMBEDDING + """
h = model(ids)
last = h[:, -1]  # expect
"""
    plain, scope, warning = reported_once(program, "GL024")
    assert not torch.allclose(plain["last"][1], plain["alone"][1], atol=1e-4)  # torch: row 1 got a pad's state
    assert torch.allclose(plain["last"][0], plain["alone"][0], atol=1e-6)  # the longest row is right
    assert torch.equal(scope["last"], plain["last"])
    text = str(warning.message)
    assert "`x[:, -1]` reads padding in 2 of 3 rows (row 1 at position 4; its real positions are 0..1)" in text
    assert "padding_idx 0" in text and "mask.sum(1) - 1" in text


def test_each_rows_last_real_position_is_silent():
    scope = assert_silent(PADDED_BY_EMBEDDING + """
h = model(ids)
last = h[torch.arange(3), lengths - 1]
picked = h.gather(1, (lengths - 1).view(3, 1, 1).expand(3, 1, 6)).squeeze(1)
first = h[:, 0]  # every row is real at position 0
tail = ids[:, -1]  # the ids themselves: reading a pad id is how padding is told
""")
    assert torch.allclose(scope["last"], scope["alone"], atol=1e-6)
    assert torch.equal(scope["picked"], scope["last"])


def test_left_padded_batch_read_at_the_last_position_is_silent():
    scope = assert_silent(PADDED_BY_EMBEDDING + """
ids = torch.zeros(3, 5, dtype=torch.long)
for i, s in enumerate(seqs):
    ids[i, 5 - len(s):] = s  # left padding
h = model(ids)
last = h[:, -1]
""")
    assert torch.allclose(scope["last"][0], scope["alone"][0], atol=1e-6)


def test_a_loop_over_the_steps_reads_padding_on_purpose_and_is_silent():
    """A decoder stepping through every position (`h[:, t]`) reads the padded steps too, to mask them later."""
    scope = assert_silent(PADDED_BY_EMBEDDING + """
h = model(ids)
real = (ids != 0).float()
total = torch.zeros(3, 6)
for t in range(ids.size(1)):
    total = total + h[:, t] * real[:, t:t + 1]
""")
    assert torch.allclose(scope["total"][1], scope["h"][1, :2].sum(0))


def test_pad_id_inside_a_row_is_not_padding_at_one_end():
    """A token equal to padding_idx in the middle of a row: the batch is not padded at one end, no evidence."""
    assert_silent(PADDED_BY_EMBEDDING + """
ids = torch.tensor([[5, 9, 0, 7, 3], [4, 8, 2, 0, 0], [6, 1, 11, 2, 0]])
h = model(ids)
last = h[:, -1]
""")


MASKED_MODEL = """
import torch
import torch.nn as nn

class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(40, 8)
        self.cell = nn.GRU(8, 8, batch_first=True)
        self.head = nn.Linear(8, 1)

    def forward(self, input_ids, attention_mask):
        states, _ = self.cell(self.embed(input_ids) * attention_mask.unsqueeze(-1))
        return self.head(states).squeeze(-1)  # [B, T] per-token rewards

def end_rewards(rewards, index):
    return rewards.gather(1, index.unsqueeze(1)).squeeze(1)  # expect

torch.manual_seed(1)
model = Scorer()
input_ids = torch.tensor([[3, 9, 4, 12, 7, 2], [5, 1, 8, 0, 0, 0], [6, 14, 2, 11, 0, 0]])
attention_mask = (input_ids != 0).long()
rewards = model(input_ids, attention_mask)
alone = torch.stack([model(r[m.bool()][None], m[m.bool()][None])[0, -1] for r, m in zip(input_ids, attention_mask)])
"""


def test_lengths_as_the_index_read_one_past_the_last_token():
    program = MASKED_MODEL + """
out = end_rewards(rewards, attention_mask.sum(1).clamp(max=5))
"""
    plain, scope, warning = reported_once(program, "GL024")
    assert not torch.allclose(plain["out"][1:], plain["alone"][1:], atol=1e-4)  # torch: rows 1, 2 read a pad
    assert torch.equal(scope["out"], plain["out"])
    text = str(warning.message)
    assert "Tensor.gather(1, index)` reads padding in 2 of 3 rows (row 1 at position 3; its real positions are 0..2)" \
        in text and "the attention_mask [3, 6] passed to Scorer" in text


def test_mask_passed_by_keyword_marks_padding_too():
    program = MASKED_MODEL + """
ids = torch.tensor([[3, 9, 4, 12], [5, 1, 0, 0]])  # a batch of other sizes, seen through keywords only
scores = model(input_ids=ids, attention_mask=(ids != 0))
out = end_rewards(scores, torch.tensor([3, 3]))
"""
    plain, scope, warning = reported_once(program, "GL024")
    assert plain["out"][1] != plain["scores"][1, 1]  # torch: row 1 read at a pad, not at its last token
    assert "row 1 at position 3" in str(warning.message) and "attention_mask [2, 4]" in str(warning.message)


def test_last_real_position_from_the_mask_is_silent():
    scope = assert_silent(MASKED_MODEL + """
out = end_rewards(rewards, attention_mask.sum(1) - 1)
""")
    assert torch.allclose(scope["out"], scope["alone"], atol=1e-6)


def test_a_mask_of_another_name_or_not_zero_one_is_not_padding():
    """A loss mask (zeros over a prompt, ones over the answer) is shaped like left padding: only an
    attention mask by name says padding; a mask holding other values says nothing."""
    assert_silent("""
import torch
import torch.nn as nn

class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(40, 8)

    def forward(self, input_ids, loss_mask):
        return (self.embed(input_ids) * loss_mask.unsqueeze(-1)).sum(-1)

class Weighted(Scorer):
    def forward(self, input_ids, attention_mask):
        return (self.embed(input_ids) * attention_mask.unsqueeze(-1)).sum(-1)

input_ids = torch.randint(1, 40, (2, 5))
prompt = torch.tensor([[0, 0, 1, 1, 1], [0, 0, 0, 1, 1]])
out = Scorer()(input_ids, prompt)[:, 0]
weights = torch.tensor([[0.0, 0.0, 0.5, 1.0, 1.0], [0.0, 0.0, 0.0, 1.0, 1.0]])
out = Weighted()(input_ids, weights)[:, 0]
""")


PAD_SEQUENCE = """
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

torch.manual_seed(2)
embed = nn.Embedding(20, 4)
seqs = [torch.tensor([3, 1, 4, 1]), torch.tensor([5, 9]), torch.tensor([2, 6, 5])]
"""


def test_pad_sequence_batch_read_at_its_last_position():
    program = PAD_SEQUENCE + """
batch = pad_sequence(seqs, batch_first=True)
states = embed(batch).cumsum(1)
summary = states[:, -1, :]  # expect
"""
    plain, scope, warning = reported_once(program, "GL024")
    wanted = torch.stack([plain["embed"](s).sum(0) for s in plain["seqs"]])
    assert not torch.allclose(plain["summary"][1], wanted[1])  # torch: row 1 summed in pad tokens' vectors
    assert torch.equal(scope["summary"], plain["summary"])
    assert "pad_sequence (right padding, lengths [4, 2, 3])" in str(warning.message)


def test_two_batches_of_one_size_padded_apart_leave_it_unknown():
    """A right-padded and a left-padded batch of the same sizes alive together: which one the states came
    from is unknown, so a read that is padding for one only stays silent."""
    assert_silent(PAD_SEQUENCE + """
right = pad_sequence(seqs, batch_first=True)
left = pad_sequence(seqs, batch_first=True, padding_side="left")
states = embed(left).cumsum(1)
summary = states[:, -1, :]
""")


# --- GL013: a count written as an overwrite -------------------------------------------------------

TOKENS = """
import torch
ids = torch.tensor([3, 1, 3, 3, 0, 1])
expected = torch.bincount(ids, minlength=5).float()
"""


@pytest.mark.parametrize("write", [
    "counts[ids] = 1  # expect",
    "counts.index_put_((ids,), torch.ones(6))  # expect",
    "counts.scatter_(0, ids, torch.ones(6))  # expect",
    "counts.scatter_(0, ids, 1.0)  # expect",
])
def test_ones_written_into_a_zeros_count_buffer_cap_every_count_at_one(write, tmp_path):
    program = TOKENS + f"""
counts = torch.zeros(5)
{write}
"""
    plain, scope, warning = reported_once(program, "GL013", tmp_path / "counting.py")  # the name is read there
    assert plain["counts"].tolist() == [1.0, 1.0, 0.0, 1.0, 0.0]  # torch: position 3 was given 3 times, holds 1
    assert plain["expected"].tolist() == [1.0, 2.0, 0.0, 3.0, 0.0]
    assert torch.equal(scope["counts"], plain["counts"])
    text = str(warning.message)
    assert "zeros buffer `counts` at 6 positions of which 3 are distinct (position 3 is given 3 times)" in text
    assert "capped at 1" in text and "bincount" in text
    assert "accumulate=True" in text or "scatter_add_" in text


def test_counting_with_accumulation_is_silent(tmp_path):
    scope = silent_in(tmp_path / "counting.py", TOKENS + """
counts = torch.zeros(5)
counts.index_put_((ids,), torch.ones(6), accumulate=True)
hist = torch.zeros(5).scatter_add_(0, ids, torch.ones(6))
""")
    assert torch.equal(scope["counts"], scope["expected"]) and torch.equal(scope["hist"], scope["expected"])


def test_presence_marks_with_the_same_values_are_silent(tmp_path):
    """The very same writes of ones at repeated positions are right when they mark presence: without a
    counting name nothing says occurrences were meant; a counting buffer given each position once, or one
    that already held counts, loses nothing the values can show."""
    scope = silent_in(tmp_path / "counting.py", TOKENS + """
seen = torch.zeros(5)
seen[ids] = 1
present = torch.zeros(5).scatter_(0, ids, torch.ones(6))
onehot = torch.zeros(6, 5)
onehot[torch.arange(6), ids] = 1
counts = torch.zeros(5)
counts[torch.tensor([0, 1, 3])] = 1  # each position once
totals = torch.full((5,), 2.0)
totals[ids] = 1  # not a fresh zeros buffer
""")
    assert scope["seen"].tolist() == [1.0, 1.0, 0.0, 1.0, 0.0] and torch.equal(scope["onehot"].sum(0), scope["expected"])
