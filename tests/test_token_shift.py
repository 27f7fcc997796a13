"""GL007 across a model call: the gathered ids against the ids the logits were computed from.
Each layout is linted, and run in torch with a small causal model against a plain next-token loop."""
import textwrap

import pytest

from .conftest import lint

# a causal stand-in: position t sees tokens 0..t only (cumsum), so logits[t] predicts token t+1
MODEL = """
import torch
import torch.nn.functional as F
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed, self.head = torch.nn.Embedding(13, 4), torch.nn.Linear(4, 13)
    def forward(self, toks, num_logits_to_keep=0):
        h = self.embed(toks).cumsum(-2)
        return self.head(h[..., -num_logits_to_keep:, :] if num_logits_to_keep else h)
"""

# the next-token log-probs of seq[:, 1:], by a loop
REFERENCE = """
torch.manual_seed(0)
net = Net()
seq = torch.randint(13, (3, 7))
full = net(seq).log_softmax(-1)
reference = torch.stack([torch.stack([full[b, t - 1, seq[b, t]] for t in range(1, 7)]) for b in range(3)])
"""


def gl007(code: str):
    return [f for f in lint(MODEL + textwrap.dedent(code)) if f.code == "GL007"]


def outcome(code: str, torch):
    """'raises', 'wrong' or 'right': the snippet's `got` against the reference's tail of the same length."""
    scope = {}
    try:
        exec(compile(MODEL + textwrap.dedent(code) + REFERENCE + "got = score(net, seq)\n", "<t>", "exec"), scope)
    except RuntimeError:
        return "raises"
    got, ref = scope["got"], scope["reference"]
    ref = ref[:, ref.shape[1] - got.shape[1]:]
    return "right" if got.shape == ref.shape and torch.allclose(got, ref, atol=1e-5) else "wrong"


BAD = {
    "helper gathers the untrimmed ids from trimmed logits": ("raises", """
        def pick(scores, targets):
            return torch.gather(F.log_softmax(scores, dim=-1), 2, targets.unsqueeze(2)).squeeze(2)

        def score(lm, tokens):
            out = lm(tokens)
            out = out[:, :-1]
            return pick(out, tokens)
        """),
    "kept logits minus one against as many ids": ("raises", """
        def score(lm, tokens, n=4):
            logits = lm(tokens, num_logits_to_keep=n)
            logp = logits[..., :-1, :].log_softmax(-1)
            tail = tokens[:, -n:]
            return torch.take_along_dim(logp, tail[..., None], dim=-1).squeeze(-1)
        """),
    "ids one position behind the logits": ("wrong", """
        def score(lm, tokens):
            logp = lm(tokens)[:, 1:, :].log_softmax(-1)
            return logp.gather(-1, tokens[:, :-1].unsqueeze(-1)).squeeze(-1)
        """),
}

GOOD = {
    "trimmed logits, shifted ids": """
        def score(lm, tokens):
            logp = lm(tokens)[:, :-1].log_softmax(-1)
            return logp.gather(-1, tokens[:, 1:].unsqueeze(-1)).squeeze(-1)
        """,
    "full logits, shifted ids (gather reads the first positions)": """
        def score(lm, tokens):
            logp = torch.log_softmax(lm(tokens), dim=-1)
            return logp.gather(-1, tokens[:, 1:].unsqueeze(-1)).squeeze(-1)
        """,
    "one more kept logit than ids": """
        def score(lm, tokens, n=4):
            logits = lm(tokens, num_logits_to_keep=n + 1)[:, :-1, :]
            logits = logits[:, -n:]
            return logits.log_softmax(-1).gather(-1, tokens[:, -n:].unsqueeze(-1)).squeeze(-1)
        """,
    "a window of the logits and the window after it": """
        def score(lm, tokens, n=3):
            logp = lm(tokens).log_softmax(-1)[:, -n - 1:-1]
            return logp.gather(-1, tokens[:, -n:].unsqueeze(-1)).squeeze(-1)
        """,
    "the model fed the inputs, the targets gathered": """
        def score(lm, tokens):
            inputs, targets = tokens[:, :-1], tokens[:, 1:]
            logp = lm(inputs).log_softmax(-1)
            return logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        """,
    "ids reassigned to their shifted slice": """
        def score(lm, tokens):
            logits = lm(tokens)
            logits = logits[:, :-1, :] / 1.0
            tokens = tokens[:, 1:]
            return logits.log_softmax(-1).gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_misaligned_pairing_is_reported_and_misbehaves(name, torch):
    expected, code = BAD[name]
    assert gl007(code), name
    assert outcome(code, torch) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_next_token_pairing_is_silent_and_right(name, torch):
    code = GOOD[name]
    assert gl007(code) == [], name
    assert outcome(code, torch) == "right"


def test_kept_logits_finding_is_at_the_model_call_and_names_the_fix():
    code = BAD["kept logits minus one against as many ids"][1]
    found = gl007(code)
    assert len(found) == 1 and "`n + 1`" in found[0].message
    assert "num_logits_to_keep=n)" in (MODEL + textwrap.dedent(code)).splitlines()[found[0].line - 1]


def test_message_names_the_shifted_ids():
    found = gl007(BAD["helper gathers the untrimmed ids from trimmed logits"][1])
    assert len(found) == 1 and "`tokens[:, 1:]`" in found[0].message


SAME_POSITION = """
    def score(tokens):
        lm = {cls}.from_pretrained("tiny")
        out = lm(input_ids=tokens)
        logp = out.logits.log_softmax(-1)
        return logp.gather(2, tokens.unsqueeze(2)).squeeze(2)
    """


def test_same_position_from_a_causal_lm_class_is_reported():
    assert gl007(SAME_POSITION.format(cls="AutoModelForCausalLM"))
    annotated = """
    def score(lm: "GPT2LMHeadModel", tokens):
        logp = lm(tokens)[0].log_softmax(-1)
        return logp.gather(-1, tokens[..., None]).squeeze(-1)
    """
    assert gl007(annotated)


@pytest.mark.parametrize("code", [
    SAME_POSITION.format(cls="AutoModelForMaskedLM"),  # a masked LM scores each token at its own position
    """
    def score(lm, tokens):  # an unknown model: same position may be its convention
        return lm(tokens).log_softmax(-1).gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
    """,
    """
    def score(lm, tokens, labels):  # the labels are another tensor: nothing to compare
        return lm(tokens)[:, :-1].log_softmax(-1).gather(-1, labels.unsqueeze(-1)).squeeze(-1)
    """,
    """
    def score(lm, tokens, dec):  # logits over the decoder's positions, not the encoder's ids
        logits = lm(tokens, decoder_input_ids=dec).logits[:, :-1]
        return logits.gather(-1, tokens.unsqueeze(-1))
    """,
    """
    def score(lm, tokens, shift):  # a branch may have shifted the ids
        logits = lm(tokens)[:, :-1]
        if shift:
            tokens = tokens[:, 1:]
        return logits.gather(-1, tokens.unsqueeze(-1))
    """,
    """
    def score(lm, tokens, start):  # one window counted from the start, the other from the end
        logits = lm(tokens)[:, start:]
        return logits.gather(-1, tokens[:, -4:].unsqueeze(-1))
    """,
])
def test_unknown_or_other_conventions_stay_silent(code):
    assert gl007(code) == []


def test_pairings_inside_branches_and_loops_are_checked():
    code = """
    def score(lm, batches, chunk):
        out = []
        for tokens in batches:
            if chunk:
                logits = lm(tokens)[:, :-1]
                out.append(logits.gather(-1, tokens.unsqueeze(-1)))
        return out
    """
    assert gl007(code)


def test_what_a_branch_assigns_is_forgotten_after_it():
    code = """
    def score(lm, tokens, flip):
        logits = lm(tokens)[:, :-1]
        for _ in range(2):
            tokens = tokens[:, 1:]
        return logits.gather(-1, tokens.unsqueeze(-1))
    """
    assert gl007(code) == []


def test_a_causal_lm_built_elsewhere_in_the_module_is_evidence():
    method = """
    class Scorer:
        def __init__(self):
            self.lm = AutoModelForCausalLM.from_pretrained("tiny")
        def score(self, tokens):
            return self.lm(tokens).logits.log_softmax(-1).gather(-1, tokens.unsqueeze(-1))
    """
    assert gl007(method)
    passed = """
    def score(lm, tokens):
        return lm(tokens).log_softmax(-1).gather(-1, tokens.unsqueeze(-1))
    def main(tokens):
        lm = LlamaForCausalLM(None)
        return score(lm, tokens)
    """
    assert gl007(passed)
    assert gl007(passed.replace("LlamaForCausalLM", "BertForMaskedLM")) == []


def test_model_inputs_spread_from_a_dict_literal():
    bad = """
    def score(lm, tokens, mask, n):
        inputs = {"input_ids": tokens, "attention_mask": mask, "logits_to_keep": n}
        logits = lm(**inputs).logits[:, :-1, :]
        return logits.log_softmax(-1).gather(-1, tokens[:, -n:].unsqueeze(-1))
    """
    assert gl007(bad)
    changed_in_a_branch = """
    def score(lm, tokens, mask, n, supported):
        inputs = {"input_ids": tokens, "attention_mask": mask}
        if supported:
            inputs["logits_to_keep"] = n + 1
        logits = lm(**inputs).logits[:, :-1, :]
        logits = logits[:, -n:]
        return logits.log_softmax(-1).gather(-1, tokens[:, -n:].unsqueeze(-1))
    """
    assert gl007(changed_in_a_branch) == []


def test_a_helper_that_shifts_inside_is_placed_in_the_caller():
    shifting_helper = """
    def next_token_logps(scores, targets):
        scores = scores[:, :-1]
        return scores.log_softmax(-1).gather(-1, targets[:, 1:].unsqueeze(-1)).squeeze(-1)

    def score(lm, tokens):
        return next_token_logps(lm(tokens), tokens)
    """
    assert gl007(shifting_helper) == []
    shifted_twice = shifting_helper.replace("next_token_logps(lm(tokens), tokens)",
                                            "next_token_logps(lm(tokens)[:, :-1], tokens[:, 1:])")
    found = gl007(shifted_twice)
    assert len(found) == 1 and "slices them itself ([:-1] of the logits, [1:] of the ids)" in found[0].message


def test_ids_read_from_a_batch_are_the_same_tensor_at_each_read():
    bad = """
    def score(lm, batch):
        logits = lm(input_ids=batch["input_ids"]).logits[:, :-1]
        return logits.log_softmax(-1).gather(-1, batch["input_ids"].unsqueeze(-1))
    """
    assert gl007(bad)
    assert gl007(bad.replace('gather(-1, batch["input_ids"]', 'gather(-1, batch["input_ids"][:, 1:]')) == []
    assert gl007(bad.replace('gather(-1, batch["input_ids"]', 'gather(-1, batch["labels"]')) == []
    shift_first = '        batch["input_ids"] = batch["input_ids"][:, 1:]\n'
    rewritten = bad.replace("        logits = lm", shift_first + "        logits = lm")
    assert gl007(rewritten) == []
