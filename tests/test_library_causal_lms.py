"""GL007: a library causal LM (transformers' `...ForCausalLM`, `...LMHeadModel`) shifts its labels itself;
labels the caller cut one token ahead of the input ids are shifted twice. The decoder halves of
encoder-decoder models, whose labels are documented as pre-shifted, and classes of the file are left out."""
import textwrap

import pytest

from .conftest import lint

SCRIPT = '''
import torch
from transformers import {CLS}


def finetune(corpus):
    lm = {CLS}.from_pretrained("some/checkpoint")
    for row in corpus:
        tokens = torch.tensor(row)[None]
        {BODY}
        out.loss.backward()
'''

PAIRS = [
    ("out = lm(tokens[:, :-1], labels=tokens[:, 1:])", True),
    ("source, target = tokens[..., :-1], tokens[..., 1:]\n        out = lm(input_ids=source, labels=target)", True),
    ("out = lm(tokens, labels=tokens)", False),
    ("out = lm(input_ids=tokens, labels=tokens.clone())", False),
    ("out = lm(tokens[:, :-1], labels=tokens[:, :-1])", False),
]


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("body, fires", PAIRS)
@pytest.mark.parametrize("cls", ["AutoModelForCausalLM", "GPT2LMHeadModel"])
def test_pre_shifted_labels_to_a_library_causal_lm(cls, body, fires):
    code = SCRIPT.replace("{CLS}", cls).replace("{BODY}", body)
    assert (_found(code) == [("GL007", _line_of(code, "out = lm("))]) == fires, body


@pytest.mark.parametrize("cls", ["TrOCRForCausalLM", "BartForCausalLM", "AutoModelForSeq2SeqLM"])
def test_models_that_take_labels_as_given_are_silent(cls):
    code = SCRIPT.replace("{CLS}", cls).replace("{BODY}", PAIRS[0][0])
    assert _found(code) == []


def test_a_causal_lm_class_of_the_file_is_judged_by_its_own_forward():
    code = SCRIPT.replace("from transformers import {CLS}\n", "class MyForCausalLM(torch.nn.Module):\n    pass\n") \
        .replace("{CLS}", "MyForCausalLM").replace("{BODY}", PAIRS[0][0])
    assert _found(code) == []


def test_torch_the_internal_shift_after_a_manual_one_scores_two_tokens_ahead(torch):
    """What a transformers causal LM computes from `labels` (its ForCausalLMLoss), written out in torch."""
    import torch.nn.functional as F
    torch.manual_seed(0)
    seq = torch.randint(0, 9, (2, 7))

    def causal_lm_loss(logits, labels):  # pads and shifts the labels, as the library does
        shifted = F.pad(labels, (0, 1), value=-100)[..., 1:]
        return F.cross_entropy(logits.reshape(-1, 9), shifted.reshape(-1), ignore_index=-100)

    logits = torch.randn(2, 6, 9)  # the model's logits for seq[:, :-1]
    lp = logits.log_softmax(-1)
    next_token = -torch.stack([lp[b, t, seq[b, t + 1]] for b in range(2) for t in range(6)]).mean()
    two_ahead = -torch.stack([lp[b, t, seq[b, t + 2]] for b in range(2) for t in range(5)]).mean()
    assert torch.allclose(causal_lm_loss(logits, seq[:, 1:]), two_ahead)
    assert not torch.allclose(two_ahead, next_token)


SAMPLER = '''
import torch
from transformers import GPT2LMHeadModel

corpus = torch.randint(0, 100, (5000,))


def get_batch(block, rows):
    starts = torch.randint(len(corpus) - block - 1, (rows,))
    x = torch.stack([corpus[s:s + block] for s in starts])
    y = torch.stack([{TARGET} for s in starts])
    return x, y


def train():
    model = GPT2LMHeadModel.from_pretrained("gpt2")
    xb, yb = get_batch(64, 8)
    model(input_ids=xb, labels=yb).loss.backward()
'''


@pytest.mark.parametrize("target, fires", [
    ("corpus[s + 1:s + 1 + block]", True),  # the hand-made next-token batch of a from-scratch loop
    ("corpus[s:s + block]", False),  # the inputs themselves: the model shifts them
])
def test_sampled_next_token_batches_into_a_library_causal_lm(target, fires):
    code = SAMPLER.replace("{TARGET}", target)
    assert (_found(code) == [("GL007", _line_of(code, "model(input_ids=xb"))]) == fires, target
