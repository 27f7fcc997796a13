"""GL024 (static/padded_last_position.py): `h[:, -1]` of a model's output on a right-padded batch.

Each snippet binds `batched` (the rows read from the padded batch) and `single` (each sequence run alone);
torch must show them differ for a flagged snippet and agree for a near-miss (the correct form).
"""
import textwrap

import pytest
import torch

from .conftest import lint
from .snippets import run_snippet

_ENCODER = """
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

class RunningEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(30, 6)

    def forward(self, tokens):
        real = (tokens != 0).unsqueeze(-1).float()
        running = (self.emb(tokens) * real).cumsum(dim=1)
        return torch.where(real.bool(), running, self.emb(tokens))  # [B, T, 6]; a pad holds its own embedding

torch.manual_seed(0)
encoder = RunningEncoder()
sentences = [torch.tensor([4, 9, 2, 7]), torch.tensor([5, 1])]
"""

FLAGGED = [
    ("pad-sequence-then-module-output", _ENCODER + """
def sentence_vectors(enc, sents):
    padded = pad_sequence(sents, batch_first=True)
    states = enc(padded)
    return states[:, -1, :]

batched = sentence_vectors(encoder, sentences)
single = torch.cat([sentence_vectors(encoder, [s]) for s in sentences])
""", 23),
    ("method-pads-front-of-rows-library-style-output", _ENCODER + """
from types import SimpleNamespace

class LibraryStyleOutput(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, input_ids):
        return SimpleNamespace(last_hidden_state=self.inner(input_ids))

class Embedder:
    def __init__(self, backbone):
        self.backbone = backbone

    def pad_right(self, seqs):
        width = max(len(s) for s in seqs)
        ids = torch.zeros(len(seqs), width, dtype=torch.long)
        for row, s in enumerate(seqs):
            n = len(s)
            ids[row][:n] = s
        return ids

    def encode(self, seqs):
        ids = self.pad_right(seqs)
        out = self.backbone(input_ids=ids.to("cpu"))
        return out.last_hidden_state[:, -1]

embedder = Embedder(LibraryStyleOutput(encoder))
batched = embedder.encode(sentences)
single = torch.cat([embedder.encode([s]) for s in sentences])
""", 45),
]

NEAR_MISSES = [
    ("left-padded-rows", _ENCODER + """
def sentence_vectors(enc, sents):
    width = max(len(s) for s in sents)
    ids = torch.zeros(len(sents), width, dtype=torch.long)
    for i, s in enumerate(sents):
        ids[i, width - len(s):] = s
    return torch.stack([enc(ids)[i, -1, :] for i in range(len(sents))])

batched = sentence_vectors(encoder, sentences)
single = torch.cat([sentence_vectors(encoder, [s]) for s in sentences])
"""),
    ("gathered-at-each-rows-last-position", _ENCODER + """
def sentence_vectors(enc, sents):
    padded = pad_sequence(sents, batch_first=True)
    states = enc(padded)
    last = torch.tensor([len(s) - 1 for s in sents])
    return states[torch.arange(len(sents)), last]

batched = sentence_vectors(encoder, sentences)
single = torch.cat([sentence_vectors(encoder, [s]) for s in sentences])
"""),
]


def test_left_padding_side_is_silent_and_right_for_a_last_read():
    code = _ENCODER + """
def sentence_vectors(enc, sents):
    padded = pad_sequence(sents, batch_first=True, padding_side="left")
    return enc(padded)[:, -1, :]

batched = sentence_vectors(encoder, sentences)
single = torch.cat([sentence_vectors(encoder, [s]) for s in sentences])
"""
    assert [f for f in lint(code) if f.code == "GL024"] == []
    scope = run_snippet(code)
    assert torch.allclose(scope["batched"], scope["single"])


def test_last_class_of_a_classifier_on_a_padded_batch_is_silent():
    # `[:, -1]` of a [B, C] output is the last class, not a position
    code = """
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(30, 3, mode="sum", padding_idx=0)

    def forward(self, tokens):
        return self.emb(tokens)  # [B, 3]

clf = BagClassifier()
padded = pad_sequence([torch.tensor([4, 9, 2]), torch.tensor([5])], batch_first=True)
last_class = clf(padded)[:, -1]
"""
    assert [f for f in lint(code) if f.code == "GL024"] == []


@pytest.mark.parametrize("name,code,line", FLAGGED, ids=[c[0] for c in FLAGGED])
def test_flagged_and_torch_reads_padding(name, code, line):
    found = [(f.line, f.code) for f in lint(textwrap.dedent(code))]
    assert (line, "GL024") in found, found
    scope = run_snippet(code)
    assert not torch.allclose(scope["batched"], scope["single"])


@pytest.mark.parametrize("name,code", NEAR_MISSES, ids=[c[0] for c in NEAR_MISSES])
def test_near_miss_is_silent_and_torch_agrees(name, code):
    assert [f for f in lint(textwrap.dedent(code)) if f.code == "GL024"] == []
    scope = run_snippet(code)
    assert torch.allclose(scope["batched"], scope["single"])


_TOKENIZED = _ENCODER + """
from types import SimpleNamespace

class TinyTokenizer:  # stands in for a library tokenizer
    padding_side = "left"

    def __call__(self, texts, padding=False, return_tensors=None):
        rows = [[ord(c) % 29 + 1 for c in t] for t in texts]
        width = max(len(r) for r in rows)
        pads = [[0] * (width - len(r)) for r in rows]
        rows = [r + p if self.padding_side == "right" else p + r for r, p in zip(rows, pads)]
        ids = torch.tensor(rows)
        return {"input_ids": ids, "attention_mask": (ids != 0).long()}

class Backbone(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, input_ids, attention_mask=None):
        return SimpleNamespace(last_hidden_state=self.inner(input_ids))

tokenizer = TinyTokenizer()
tokenizer.padding_side = "SIDE"
backbone = Backbone(encoder)

def last_token_states(texts):
    batch = tokenizer(texts, padding=True, return_tensors="pt")
    outputs = backbone(**batch)
    return outputs.last_hidden_state[:, -1]

texts = ["steer", "no"]
batched = last_token_states(texts)
single = torch.cat([last_token_states([t]) for t in texts])
"""


def test_tokenizer_padding_on_the_right_is_flagged_and_torch_reads_padding():
    code = _TOKENIZED.replace("SIDE", "right")
    found = [(f.line, f.code) for f in lint(code)]
    line = next(i for i, text in enumerate(code.splitlines(), 1) if "last_hidden_state[:, -1]" in text)
    assert (line, "GL024") in found, found
    scope = run_snippet(code)
    assert not torch.allclose(scope["batched"], scope["single"])


def test_tokenizer_padding_on_the_left_is_silent_and_torch_agrees():
    code = _TOKENIZED.replace("SIDE", "left")
    assert [f for f in lint(code) if f.code == "GL024"] == []
    scope = run_snippet(code)
    assert torch.allclose(scope["batched"], scope["single"])


_STACKED = _ENCODER + """
import torch.nn.functional as F

def collate(seqs):
    width = max(s.numel() for s in seqs)
    return torch.stack([F.pad(s, PADS) for s in seqs])

def collate_by_rows(seqs):
    width = max(s.numel() for s in seqs)
    rows = []
    for s in seqs:
        filler = torch.zeros(width - s.numel(), dtype=s.dtype)
        rows.append(torch.cat(PARTS))
    return torch.stack(rows)

def last_states(model, seqs, make):
    batch = make(seqs)
    out = model(batch)
    return out[:, -1, :]

batched = torch.cat([last_states(encoder, sentences, collate), last_states(encoder, sentences, collate_by_rows)])
single = torch.cat([last_states(encoder, [s], collate) for s in sentences] * 2)
"""


def test_rows_padded_at_their_end_and_stacked_are_flagged_and_torch_reads_padding():
    code = _STACKED.replace("PADS", "(0, width - s.numel())").replace("PARTS", "[s, filler]")
    assert [f for f in lint(code) if f.code == "GL024"] == []  # the batch comes from a function handed in
    direct = code.replace("    batch = make(seqs)\n", "    batch = collate(seqs) if make is collate else collate_by_rows(seqs)\n")
    assert [f for f in lint(direct) if f.code == "GL024"] == []  # either of two: joined, not followed
    for maker in ("collate", "collate_by_rows"):
        one = code.replace("    batch = make(seqs)\n", f"    batch = {maker}(seqs)\n")
        line = next(i for i, text in enumerate(one.splitlines(), 1) if "out[:, -1, :]" in text)
        assert (line, "GL024") in [(f.line, f.code) for f in lint(one)], maker
    scope = run_snippet(code)
    assert not torch.allclose(scope["batched"], scope["single"])


def test_rows_padded_at_their_start_are_silent_and_torch_agrees():
    code = _STACKED.replace("PADS", "(width - s.numel(), 0)").replace("PARTS", "[filler, s]")
    for maker in ("collate", "collate_by_rows"):
        one = code.replace("    batch = make(seqs)\n", f"    batch = {maker}(seqs)\n")
        assert [f for f in lint(one) if f.code == "GL024"] == [], maker
    scope = run_snippet(code)
    assert torch.allclose(scope["batched"], scope["single"])
