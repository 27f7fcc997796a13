"""GL024 (static/left_padding.py): a left-padded batch read at `mask.sum(1) - 1`.
The padding may be made in a helper and the read done in a model's forward it is handed to: the fact rides
on the batch, its mask, the mask's counts and the counts minus one.

Each snippet binds `batched` (the rows read from the padded batch) and `single` (each sequence run alone);
torch must show them differ for a flagged snippet and agree for a near-miss (the correct form).
"""
import pytest
import torch

from .conftest import lint
from .snippets import run_snippet

_ENCODER = """
import torch
import torch.nn as nn
from types import SimpleNamespace

class RunningEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(30, 6)

    def forward(self, input_ids, attention_mask=None):
        real = (input_ids != 0).unsqueeze(-1).float()
        running = (self.emb(input_ids) * real).cumsum(dim=1)
        return torch.where(real.bool(), running, self.emb(input_ids))  # [B, T, 6]; a pad holds its own embedding

torch.manual_seed(0)
encoder = RunningEncoder()
sentences = [torch.tensor([4, 9, 2, 7]), torch.tensor([5, 1])]
"""

_HELPER = _ENCODER + """
def pad_batch(seqs):
    width = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), width, dtype=torch.long)
    mask = torch.zeros(len(seqs), width, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, width - len(s):] = s
        mask[i, width - len(s):] = 1
    return ids, mask

def last_states(model, seqs):
    ids, mask = pad_batch(seqs)
    hidden = model(ids)
    READ

batched = last_states(encoder, sentences)
single = torch.cat([last_states(encoder, [s]) for s in sentences])
"""

_TOKENIZED = _ENCODER + """
class TinyTokenizer:  # stands in for a library tokenizer
    padding_side = "right"

    def __call__(self, texts, padding=False, return_tensors=None):
        rows = [[ord(c) % 29 + 1 for c in t] for t in texts]
        width = max(len(r) for r in rows)
        pads = [[0] * (width - len(r)) for r in rows]
        rows = [r + p if self.padding_side == "right" else p + r for r, p in zip(rows, pads)]
        ids = torch.tensor(rows)
        return {"input_ids": ids, "attention_mask": (ids != 0).long()}

tokenizer = TinyTokenizer()
tokenizer.padding_side = "SIDE"

def last_token_states(texts):
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    states = encoder(**enc)
    ends = (enc["attention_mask"].sum(-1) - 1).view(-1, 1, 1).expand(-1, 1, states.size(-1))
    return states.gather(1, ends).squeeze(1)

texts = ["steer", "no"]
batched = last_token_states(texts)
single = torch.cat([last_token_states([t]) for t in texts])
"""


_CLASSIFIER = _ENCODER + """
class LastTokenClassifier(nn.Module):
    def __init__(self, pad_token_id):
        super().__init__()
        self.encoder = RunningEncoder()
        self.pad_token_id = pad_token_id

    def forward(self, input_ids):
        states = self.encoder(input_ids)
        lengths = torch.ne(input_ids, self.pad_token_id).sum(-1) - 1
        return states[torch.arange(input_ids.shape[0]), lengths]

def pad(seqs, pad_id):
    width = max(len(s) for s in seqs)
    return torch.tensor([ROW for s in seqs])

torch.manual_seed(0)
model = LastTokenClassifier(pad_token_id=0)
prompts = [[5, 6, 7, 8, 9], [11, 12], [21, 22, 23]]
batched = model(pad(prompts, pad_id=0))
single = torch.cat([model(torch.tensor([p])) for p in prompts])
"""

# the mask written as lists: zeros for the padding, then ones for the tokens
_LIST_MASK = _HELPER.replace("""    ids = torch.zeros(len(seqs), width, dtype=torch.long)
    mask = torch.zeros(len(seqs), width, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, width - len(s):] = s
        mask[i, width - len(s):] = 1
    return ids, mask""", """    rows = [s.tolist() for s in seqs]
    ids = torch.tensor([IDS for s in rows])
    mask = torch.tensor([MASK for s in rows])
    return ids, mask""")


def _line_of(code, text):
    return next(i for i, line in enumerate(code.splitlines(), 1) if text in line)


FLAGGED = [
    ("helper-pads-left-row-pick", _HELPER.replace("READ", "return hidden[torch.arange(len(seqs)), mask.sum(dim=1) - 1]"),
     "mask.sum(dim=1) - 1]"),
    ("tokenizer-left-gather", _TOKENIZED.replace("SIDE", "left"), "states.gather(1, ends)"),
    ("helper-pads-left-model-reads", _CLASSIFIER.replace("ROW", "[pad_id] * (width - len(s)) + s"),
     "states[torch.arange"),
    ("list-mask-pads-left", _LIST_MASK.replace("IDS", "[0] * (width - len(s)) + s").replace(
        "MASK", "[0] * (width - len(s)) + [1] * len(s)").replace(
        "READ", "return hidden[torch.arange(len(seqs)), mask.sum(dim=1) - 1]"), "mask.sum(dim=1) - 1]"),
]

NEAR_MISSES = [
    ("helper-pads-left-reads-last-position", _HELPER.replace("READ", "return hidden[:, -1]")),
    ("tokenizer-right-gather", _TOKENIZED.replace("SIDE", "right")),
    ("helper-pads-right-model-reads", _CLASSIFIER.replace("ROW", "s + [pad_id] * (width - len(s))")),
    ("list-mask-pads-right", _LIST_MASK.replace("IDS", "s + [0] * (width - len(s))").replace(
        "MASK", "[1] * len(s) + [0] * (width - len(s))").replace(
        "READ", "return hidden[torch.arange(len(seqs)), mask.sum(dim=1) - 1]")),
]


@pytest.mark.parametrize("name,code,text", FLAGGED, ids=[c[0] for c in FLAGGED])
def test_flagged_and_torch_reads_the_wrong_position(name, code, text):
    found = [(f.line, f.code) for f in lint(code)]
    assert (_line_of(code, text), "GL024") in found, found
    scope = run_snippet(code)
    assert not torch.allclose(scope["batched"], scope["single"])


@pytest.mark.parametrize("name,code", NEAR_MISSES, ids=[c[0] for c in NEAR_MISSES])
def test_near_miss_is_silent_and_torch_agrees(name, code):
    assert [f for f in lint(code) if f.code == "GL024"] == []
    scope = run_snippet(code)
    assert torch.allclose(scope["batched"], scope["single"])
