"""GL007 through a submodule: a model that holds a decoder (`self.decoder = Decoder(...)`) whose forward
shifts its labels, and feeds it labels already shifted right, scores each position two tokens ahead. The
same holds whether the decoder is handed to a function or held by another model. Torch confirms: the loss
differs from teacher forcing on the labels, and the fixed model (no second shift) equals it."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

PROGRAM = """
import torch
import torch.nn as nn


def shift_right(input_ids, bos_token_id):
    shifted = input_ids.new_full(input_ids.shape, bos_token_id)
    shifted[:, 1:] = input_ids[:, :-1]
    return shifted


class Decoder(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids, labels):
        logits = self.lm_head(self.embed(input_ids))
        logprobs = logits{LOGITS}.log_softmax(dim=-1)
        targets = labels{LABELS}
        token_logprobs = logprobs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        return -token_logprobs.mean()


class AnswerModel(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.decoder = Decoder(vocab_size, hidden)

    def forward(self, answer_ids):
        decoder_input_ids = shift_right(answer_ids, 1)
        return self.decoder(decoder_input_ids, answer_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = AnswerModel(30, 8)
    answers = torch.randint(2, 30, (2, 6))
    loss = model(answers)
    inputs = shift_right(answers, 1)
    logp = model.decoder.lm_head(model.decoder.embed(inputs)).log_softmax(-1)
    reference = -torch.stack([logp[b, t, answers[b, t]] for b in range(2) for t in range(6)]).mean()
    print(float(loss), float(reference))
    assert {CHECK}
"""


def _program(fixed: bool) -> str:
    if fixed:
        return PROGRAM.replace("{LOGITS}", "").replace("{LABELS}", "").replace("{CHECK}", "torch.allclose(loss, reference)")
    return PROGRAM.replace("{LOGITS}", "[:, :-1, :]").replace("{LABELS}", "[:, 1:]").replace(
        "{CHECK}", "not torch.allclose(loss, reference)")


INDEX_TEMPORARY = ("        token_logprobs = logprobs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)\n",
                   "        index = targets.unsqueeze(-1)\n        token_logprobs = logprobs.gather(-1, index).squeeze(-1)\n")


@pytest.mark.parametrize("temporary", [False, True], ids=["inline", "index-temporary"])
def test_a_held_decoder_shifting_shifted_labels_again_is_reported(temporary):
    code = _program(fixed=False)
    if temporary:
        code = code.replace(*INDEX_TEMPORARY)
    assert (22 + temporary, "GL007") in [(v.line, v.code) for v in lint(textwrap.dedent(code))]
    run_snippet(code)


def test_a_held_decoder_pairing_position_by_position_is_silent():
    code = _program(fixed=True)
    assert [v for v in lint(textwrap.dedent(code)) if v.code == "GL007"] == []
    run_snippet(code)
