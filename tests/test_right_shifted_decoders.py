"""GL007: a decoder that reads the labels shifted right already aligns its logits with the labels; a loss
helper that shifts them again (logits [:-1] against labels [1:]) scores each position against the token two
steps ahead. The shift right is known by its library names or by what a function of the file does."""
import textwrap

import pytest

from .conftest import lint

SEQ2SEQ = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_decoder_inputs(tokens, bos):
    out = torch.full_like(tokens, bos)
    out[:, 1:] = tokens[:, :-1].clone()
    return out


def causal_loss(scores, gold):
    return F.cross_entropy(scores[:, :-1].reshape(-1, scores.shape[-1]), gold[:, 1:].reshape(-1))


def plain_loss(scores, gold):
    return F.cross_entropy(scores.reshape(-1, scores.shape[-1]), gold.reshape(-1))


class Summarizer(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.encoder = nn.GRU(width, width, batch_first=True)
        self.embed = nn.Embedding(vocab, width)
        self.decoder = nn.GRU(width, width, batch_first=True)
        self.out = nn.Linear(width, vocab)

    def forward(self, source, labels=None, decoder_input_ids=None):
        _, memory = self.encoder(self.embed(source))
        if labels is not None and decoder_input_ids is None:
            decoder_input_ids = {SHIFT}
        states, _ = self.decoder(self.embed(decoder_input_ids), memory)
        logits = self.out(states)
        return {LOSS}(logits, labels)
'''


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("shift, loss, fires", [
    ("make_decoder_inputs(labels, 0)", "causal_loss", True),
    ("shift_tokens_right(labels, 1, 0)", "causal_loss", True),
    ("self._shift_right(labels)", "causal_loss", True),
    ("make_decoder_inputs(labels, 0)", "plain_loss", False),  # positions already aligned: no second shift
    ("labels", "causal_loss", False),  # the decoder reads the labels themselves: one shift, in the loss
    ("make_decoder_inputs(source, 0)", "causal_loss", False),  # other tokens: nothing known of their pairing
])
def test_decoder_inputs_shifted_right_then_a_shifting_loss(shift, loss, fires):
    code = SEQ2SEQ.replace("{SHIFT}", shift).replace("{LOSS}", loss)
    if "shift_tokens_right" in shift:
        code = code.replace("import torch\n", "import torch\nfrom transformers.models.bart.modeling_bart import shift_tokens_right\n", 1)
    assert (_found(code) == [("GL007", _line_of(code, f"return {loss}(logits"))]) == fires, (shift, loss)


def test_decoder_inputs_given_by_the_caller_are_not_assumed():
    code = SEQ2SEQ.replace("{SHIFT}", "make_decoder_inputs(labels, 0)").replace("{LOSS}", "causal_loss").replace(
        "        if labels is not None and decoder_input_ids is None:\n",
        "        if labels is not None and decoder_input_ids is None:\n            pass\n        else:\n")
    assert _found(code) == []


def test_torch_shifted_right_decoder_logits_already_predict_their_own_position(torch):
    import torch.nn.functional as F
    torch.manual_seed(0)
    labels = torch.randint(1, 9, (2, 6))
    decoder_inputs = torch.cat([torch.zeros(2, 1, dtype=torch.long), labels[:, :-1]], dim=1)
    embed, head = torch.nn.Embedding(9, 8), torch.nn.Linear(8, 9)
    logits = head(embed(decoder_inputs).cumsum(1))  # position t has read labels 0..t-1
    lp = logits.log_softmax(-1)
    aligned = -torch.stack([lp[b, t, labels[b, t]] for b in range(2) for t in range(6)]).mean()
    assert torch.allclose(F.cross_entropy(logits.reshape(-1, 9), labels.reshape(-1)), aligned)
    twice = F.cross_entropy(logits[:, :-1].reshape(-1, 9), labels[:, 1:].reshape(-1))
    two_ahead = -torch.stack([lp[b, t, labels[b, t + 1]] for b in range(2) for t in range(5)]).mean()
    assert torch.allclose(twice, two_ahead) and not torch.allclose(twice, aligned)


NESTED = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers.models.bart.modeling_bart import shift_tokens_right


def causal_lm_loss(logits, labels, vocab_size, ignore_index=-100, shift_labels=None):
    if shift_labels is None:
        labels = F.pad(labels, (0, 1), value=ignore_index)
        shift_labels = labels[..., 1:].contiguous()
    return F.cross_entropy(logits.view(-1, vocab_size), shift_labels.view(-1), ignore_index=ignore_index)


class TinySeq2Seq(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.shared = nn.Embedding(config.vocab_size, config.d_model)
        self.decoder = nn.GRU(config.d_model, config.d_model, batch_first=True)
        self.lm_head = nn.Linear(config.d_model, config.vocab_size)
        self.loss_function = causal_lm_loss

    def forward(self, input_ids=None, decoder_input_ids=None, labels=None):
        if labels is not None:
            if decoder_input_ids is None:
                decoder_input_ids = shift_tokens_right(labels, self.config.pad_token_id, 2)
        out, _ = self.decoder(self.shared(decoder_input_ids))
        lm_logits = self.lm_head(out)
        loss = None
        if labels is not None:
            loss = self.loss_function(lm_logits, labels, self.config.vocab_size{EXTRA})
        return loss, lm_logits
'''


@pytest.mark.parametrize("extra, fires", [
    ("", True),
    (", shift_labels=labels", False),  # handed over as already aligned: the helper does not shift them
])
def test_training_path_of_nested_optional_arguments(extra, fires):
    code = NESTED.replace("{EXTRA}", extra)
    assert (_found(code) == [("GL007", _line_of(code, "loss = self.loss_function("))]) == fires, extra


def test_a_labels_branch_that_leaves_early_is_not_one_path_with_the_code_below():
    import ast
    from gather_lint.static import omitted_arguments
    fn = ast.parse(textwrap.dedent("""
    def forward(self, ids, labels=None, decoder_input_ids=None):
        if labels is not None:
            return self.loss(ids, labels)
        if labels is not None:
            loss = self.loss(ids, labels)
        if decoder_input_ids is None:
            decoder_input_ids = ids
    """)).body[0]
    optional = omitted_arguments.defaulting_to_none(fn)
    leaves, stays, fills = fn.body
    assert omitted_arguments.given_path(leaves, optional) is None
    assert omitted_arguments.given_path(stays, optional) == "labels"
    assert omitted_arguments.filled_default(fills, optional) == "decoder_input_ids"
