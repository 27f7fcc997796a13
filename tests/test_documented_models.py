"""GL007: a model parameter the docstring describes as a causal LM, whose logits are gathered at the very
positions of the ids it was fed."""
import textwrap

import pytest

from .conftest import lint

SCORER = '''
import torch


def sequence_logprob(lm, tokens):
    """Sum of the token log-probabilities of each sequence.

    {DOC}
    """
    {BODY}
'''

SAME = ("scores = lm(tokens).log_softmax(-1)\n"
        "    return scores.gather(-1, tokens.unsqueeze(-1)).squeeze(-1).sum(-1)")
NEXT = ("scores = lm(tokens)[:, :-1].log_softmax(-1)\n"
        "    return scores.gather(-1, tokens[:, 1:].unsqueeze(-1)).squeeze(-1).sum(-1)")


def _found(code):
    return [(f.code, f.line) for f in lint(code)]


def _line_of(code, text):
    return next(i for i, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


@pytest.mark.parametrize("doc, body, fires", [
    ("Args:\n        lm: an autoregressive language model; lm(x) gives logits (B, L, V).", SAME, True),
    ("Args:\n        lm (nn.Module): causal LM.\n        tokens (LongTensor): (B, L) ids.", SAME, True),
    (":param lm: a decoder-only (causal) transformer\n    :param tokens: ids", SAME, True),
    ("Args:\n        lm: an autoregressive language model.", NEXT, False),
    ("Args:\n        lm: a bidirectional masked LM, not causal.", SAME, False),
    ("Args:\n        lm: any scorer.\n        tokens: ids from a causal LM's sampler.", SAME, False),
])
def test_documented_causal_model_parameter(doc, body, fires):
    code = SCORER.replace("{DOC}", doc).replace("{BODY}", body)
    assert (_found(code) == [("GL007", _line_of(code, "return scores.gather"))]) == fires, doc


def test_torch_a_causal_model_s_own_position_reads_the_token_it_was_given(torch):
    torch.manual_seed(0)
    tokens = torch.randint(0, 9, (1, 5))
    embed, head = torch.nn.Embedding(9, 8), torch.nn.Linear(8, 9)
    logits = head(embed(tokens).cumsum(1))  # position t has read tokens 0..t
    changed = tokens.clone()
    changed[0, 4] = (tokens[0, 4] + 1) % 9
    later = head(embed(changed).cumsum(1))
    assert torch.allclose(logits[0, :4], later[0, :4])  # positions before t never see token t
    assert not torch.allclose(logits[0, 4], later[0, 4])  # position t does: scoring it there reads it back
