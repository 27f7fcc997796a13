"""Library causal LMs that shift their labels themselves.

A transformers causal LM (`AutoModelForCausalLM`, `GPT2LMHeadModel`, `LlamaForCausalLM`, ...) called with
`labels=` pairs its logits at t with the label at t+1 inside (`labels` are meant to be the input ids).
Labels the caller already cut one token ahead of the ids (`model(seq[:, :-1], labels=seq[:, 1:])`) are
shifted twice: each position is scored against the token two steps ahead. The decoder halves of
encoder-decoder models (`BartForCausalLM`, `TrOCRForCausalLM`, ...) do not shift (their labels are
documented as already shifted) and are left out, as is any class defined in the file itself.
"""
from __future__ import annotations

import re

from ..contract import WARNING, Violation
from .text_scan import file_test

_SHIFTING = re.compile(r"(?:ForCausalLM|LMHeadModel)$")
# decoder halves of encoder-decoder models: their loss takes labels as given
_NOT_SHIFTING = re.compile(r"^(?:Bart|MBart|PLBart|Marian|Pegasus|BigBirdPegasus|Blenderbot|BlenderbotSmall|Whisper|"
                           r"TrOCR|Mvp|Speech2Text2|Trocr)ForCausalLM$")


def shifts_labels(class_name: str) -> bool:
    return bool(_SHIFTING.search(class_name)) and not _NOT_SHIFTING.match(class_name)


def ids_argument(call, keywords):
    """The input ids of `model(ids, ...)` / `model(input_ids=ids, ...)`; None when given through `*args`."""
    import ast
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    return call.args[0] if call.args else keywords.get("input_ids")


def shifted_twice(class_name: str, call_text: str, ids_text: str, labels_text: str) -> Violation:
    return Violation(
        "GL007", WARNING,
        f"`{class_name}` shifts its labels itself (its logits at t are scored against labels[t + 1]), but "
        f"`{call_text}` passes `{labels_text}`, already one token ahead of `{ids_text}` (cut from one sequence a "
        f"token apart): each position is scored against the token two steps ahead and one more is dropped, "
        f"silently; give the model the same tokens as input ids and labels (the whole sequence, uncut)",
        help="pass labels aligned with the input ids; the model shifts them")


_NAMES = ("ForCausalLM", "LMHeadModel")


@file_test
def spelled_in(text: str) -> bool:
    """A library causal LM named in code (not in a doctest, a class statement or a string) and a call with
    labels: a cheap test before any walk."""
    return "labels=" in text and any(name in text for name in _NAMES) and bool(lines(text)[0])


def lines(text: str) -> tuple:
    """(sorted lines naming a causal LM class in code, sorted lines passing `labels=`): a function holding
    both can build (or be annotated with) such a model and call it."""
    from . import text_scan
    named = set()
    for name in _NAMES:
        for at in text_scan.positions(text, name):
            start = text.rfind("\n", 0, at) + 1
            line = text[start:at].lstrip()
            word = at
            while word > start and (text[word - 1].isalnum() or text[word - 1] == "_"):
                word -= 1
            end = at + len(name)
            before = text[word - 1] if word > start else ""
            if line.startswith((">>>", "...", "class ", "#", "from ", "import ")) or before in "'\"`[.~*" and before:
                continue  # a doctest, the class's own statement, a comment, an import, a string or a reference
            if not (text.startswith(("(", ".from_pretrained(", ".from_config("), end) or before == " " and
                    text[word - 2:word] == ": "):
                continue  # neither built here nor a parameter's annotation
            named.add(text.count("\n", 0, at) + 1)
    if not named:
        return [], []
    passing = sorted({text.count("\n", 0, at) + 1 for at in text_scan.positions(text, "labels=")})
    return sorted(named), passing
