"""Kept singletons and shifted sequences that only show with facts from elsewhere: batch dicts and
tuples carried into loss helpers (GL006), a gathered [N, 1] of unknown N against a 1-d tensor, model
classes causal by construction, helpers that shift a second time, masks cut on the wrong side (GL007).
Every layout is linted and, where a claim is made, run in torch."""
import textwrap

import pytest

from .conftest import lint


def found(code: str, rule: str):
    return [f for f in lint(textwrap.dedent(code)) if f.code == rule]


def line_of(code: str, text: str) -> int:
    return next(n for n, line in enumerate(textwrap.dedent(code).splitlines(), 1) if text in line)


def run(code: str) -> dict:
    scope: dict = {"__name__": "__main__"}
    exec(compile(textwrap.dedent(code), "<t>", "exec"), scope)
    return scope


# ----- GL006: facts that arrive in a batch dict or a tuple ---------------------------------------------

DICT_BATCH = """
import torch

def surrogate(log_probs, rollout):
    picked = log_probs.gather(-1, rollout["acts"].unsqueeze(-1))
    return torch.exp(picked - rollout["old_logp"])

if __name__ == "__main__":
    rollout = {{"acts": torch.randint(0, 3, ({steps}, {envs})), "old_logp": torch.randn({steps}, {envs})}}
    out = surrogate(torch.randn({steps}, {envs}, 3).log_softmax(-1), rollout)
"""


def test_batch_dict_items_reach_the_helper(torch):
    [finding] = found(DICT_BATCH.format(steps=6, envs=4), "GL006")
    assert finding.line == 5 and "[6, 4, 1]" in finding.message and "torch raises a size mismatch" in finding.message
    with pytest.raises(RuntimeError, match="must match the size"):
        run(DICT_BATCH.format(steps=6, envs=4))
    assert "always [5, 5, 5], silently" in found(DICT_BATCH.format(steps=5, envs=5), "GL006")[0].message
    assert run(DICT_BATCH.format(steps=5, envs=5))["out"].shape == (5, 5, 5)


def test_a_dict_written_after_it_is_built_carries_nothing():
    code = DICT_BATCH.format(steps=6, envs=4).replace(
        "    out = surrogate", "    rollout[\"old_logp\"] = torch.randn(6, 4, 1)\n    out = surrogate")
    assert found(code, "GL006") == []


TUPLE_BATCH = """
import torch

def td_loss(q_values, transitions, gamma=0.9):
    acts, rewards, next_best = transitions
    q_taken = q_values.gather(1, acts.view(-1, 1))
    target = rewards + gamma * next_best
    return ((q_taken - target) ** 2).mean(), q_taken - target

if __name__ == "__main__":
    transitions = (torch.randint(0, 4, (9,)), torch.randn(9), torch.randn(9))
    loss, err = td_loss(torch.randn(9, 4), transitions)
"""


def test_tuple_batch_unpacked_in_the_helper(torch):
    [finding] = found(TUPLE_BATCH, "GL006")
    assert finding.line == 6 and "always [9, 9], silently" in finding.message
    assert run(TUPLE_BATCH)["err"].shape == (9, 9)


def test_squeezed_gather_with_a_tuple_batch_is_clean():
    assert found(TUPLE_BATCH.replace(".view(-1, 1))", ".view(-1, 1)).squeeze(1)"), "GL006") == []


OUTER = """
import torch

def policy_loss(logits, taken, returns):
    logp = torch.log_softmax(logits, -1).gather(1, taken.reshape(-1, 1))
    return logp * returns

if __name__ == "__main__":
    taken = torch.nonzero(torch.ones(7)).squeeze(-1) % 3  # a count of rows the analysis cannot know
    out = policy_loss(torch.randn(7, 3), taken, {returns})
"""


def test_unknown_rows_against_a_1d_tensor_are_an_outer_product(torch):
    [finding] = found(OUTER.format(returns="torch.randn(7)"), "GL006")
    assert finding.line == 5 and "[?, 7]" in finding.message and "outer product" in finding.message
    assert run(OUTER.format(returns="torch.randn(7)"))["out"].shape == (7, 7)


@pytest.mark.parametrize("returns", ["torch.randn(1)", "torch.randn(7, 1)", "torch.randn(7, 3)", "torch.tensor(2.0)"])
def test_unknown_rows_against_what_does_not_grow_are_clean(returns):
    assert found(OUTER.format(returns=returns), "GL006") == []


# ----- GL007: models causal by construction ---------------------------------------------------------

LM = """
import torch
import torch.nn as nn

class {name}(nn.Module):
    def __init__(self, vocab=11, width=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, width)
        {body}
        self.proj = nn.Linear(width, vocab)

    def forward(self, ids):
        {forward}

def token_scores(lm, ids):
    logp = torch.log_softmax(lm(ids), dim=-1)
    return logp.gather({dim}, ids.unsqueeze({unsqueeze})).squeeze(-1)

if __name__ == "__main__":
    torch.manual_seed(0)
    lm = {name}()
    ids = torch.randint(0, 11, (2, 5))
    with torch.no_grad():
        got = token_scores(lm, ids)
        full = torch.log_softmax(lm(ids), -1)
    next_token = torch.stack([full[b, t - 1, ids[b, t]] for b in range(2) for t in range(1, 5)])
    same = torch.stack([got[b, t] for b in range(2) for t in range(1, 5)])
"""
GRU = dict(body="self.rnn = nn.GRU(width, width, batch_first=True)",
           forward="h, _ = self.rnn(self.emb(ids))\n        return self.proj(h)")
MASKED = dict(body="self.register_buffer('mask', torch.tril(torch.ones(5, 5)))",
              forward="h = self.emb(ids)\n        w = (h @ h.transpose(1, 2)).masked_fill(self.mask == 0, float('-inf'))\n"
                      "        return self.proj(w.softmax(-1) @ h)")


@pytest.mark.parametrize("name, parts, dim, unsqueeze", [
    ("TinyLM", GRU, 2, -1), ("CharModel", GRU, -1, 2), ("Scorer", GRU, -1, -1), ("Attn", MASKED, 2, 2),
])
def test_same_position_gather_from_a_causal_class(torch, name, parts, dim, unsqueeze):
    code = LM.format(name=name, dim=dim, unsqueeze=unsqueeze, **parts)
    [finding] = found(code, "GL007")
    assert finding.line == line_of(code, "logp.gather(") and "causal by" in finding.message
    scope = run(code)
    assert not torch.allclose(scope["same"], scope["next_token"])  # each token scored by its own position


@pytest.mark.parametrize("parts", [
    dict(body="self.rnn = nn.GRU(width, width // 2, batch_first=True, bidirectional=True)",
         forward="h, _ = self.rnn(self.emb(ids))\n        return self.proj(torch.cat([h, h], -1)[..., :6])"),
    dict(body="self.rnn = nn.LSTM(width, width, batch_first=True)",  # shifts the inputs itself
         forward="x = torch.cat([torch.zeros_like(ids[:, :1]), ids[:, :-1]], 1)\n"
                 "        h, _ = self.rnn(self.emb(x))\n        return self.proj(h)"),
    dict(body="self.mix = nn.Linear(width, width)", forward="return self.proj(self.mix(self.emb(ids)))"),
])
def test_same_position_gather_without_causal_evidence_is_clean(parts):
    assert found(LM.format(name="Model", dim=2, unsqueeze=-1, **parts), "GL007") == []


def test_a_model_built_from_a_causal_block_is_causal():
    code = LM.format(name="Stack", dim=2, unsqueeze=-1, body="self.block = Block(width)",
                     forward="return self.proj(self.block(self.emb(ids)))")
    code += textwrap.dedent("""
        class Block(nn.Module):
            def __init__(self, width):
                super().__init__()
                self.rnn = nn.RNN(width, width, batch_first=True)
            def forward(self, x):
                return self.rnn(x)[0]
        """)
    [finding] = found(code, "GL007")
    assert "its `Block` layers" in finding.message


def test_unshifting_helper_is_reported_at_its_gather():
    code = LM.format(name="TinyLM", dim=2, unsqueeze=-1, **GRU).replace(
        "def token_scores(lm, ids):\n    logp = torch.log_softmax(lm(ids), dim=-1)\n",
        "def token_scores(lm, ids):\n    return picked(lm(ids), ids)\n\ndef picked(logits, ids):\n"
        "    logp = torch.log_softmax(logits, dim=-1)\n")
    [finding] = found(code, "GL007")
    assert finding.line == line_of(code, "logp.gather(")
    assert f"(`picked(...)` at line {line_of(code, 'return picked(')})" in finding.message


# ----- GL007: shifted twice, masks cut on the wrong side ---------------------------------------------

TWICE = """
import torch

def next_token_nll(scores, targets):
    scores, targets = scores[:, :-1, :], targets[:, 1:]
    logp = scores.log_softmax(-1)
    return -logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)

def loss_of(head, hidden, targets):
    out = head(hidden)
    return next_token_nll({args})

if __name__ == "__main__":
    torch.manual_seed(0)
    head = torch.nn.Linear(4, 9)
    hidden, targets = torch.randn(2, 6, 4), torch.randint(0, 9, (2, 6))
    got = loss_of(head, hidden, targets)
    lp = head(hidden).log_softmax(-1)
    plus_two = torch.stack([-lp[b, t, targets[b, t + 2]] for b in range(2) for t in range(4)]).view(2, 4)
"""


def test_shifted_before_a_helper_that_shifts(torch):
    code = TWICE.format(args="out[:, :-1].contiguous(), targets[:, 1:]")
    [finding] = found(code, "GL007")
    assert finding.line == 11 and "t+2" in finding.message
    scope = run(code)
    assert torch.allclose(scope["got"], scope["plus_two"])  # logits at t against the label at t+2


def test_unshifted_arguments_to_a_helper_that_shifts_are_clean():
    assert found(TWICE.format(args="out, targets"), "GL007") == []


MASK = """
import torch

def sequence_logps(lm, tokens, {mask}):
    inputs, targets = tokens[:, :-1], tokens[:, 1:]
    logp = lm(inputs).log_softmax(-1).gather(2, targets.unsqueeze(2)).squeeze(2)
    return (logp * {mask}[:, {cut}]).sum(-1)

if __name__ == "__main__":
    torch.manual_seed(0)
    lm = torch.nn.Sequential(torch.nn.Embedding(9, 4), torch.nn.Linear(4, 9))
    tokens = torch.randint(0, 9, (1, 6))
    keep = torch.tensor([[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]])  # the last three tokens are the completion
    got = sequence_logps(lm, tokens, keep)
    lp = lm(tokens).log_softmax(-1)
    completion = sum(lp[0, t - 1, tokens[0, t]] for t in range(3, 6))
"""


def test_completion_mask_cut_like_the_inputs(torch):
    code = MASK.format(mask="loss_mask", cut=":-1")
    [finding] = found(code, "GL007")
    assert finding.line == 7 and "loss_mask[:, 1:]" in finding.message
    scope = run(code)
    assert not torch.allclose(scope["got"], scope["completion"].reshape(1))
    fixed = run(MASK.format(mask="loss_mask", cut="1:"))
    assert torch.allclose(fixed["got"], fixed["completion"].reshape(1))


@pytest.mark.parametrize("mask, cut", [("loss_mask", "1:"), ("attention_mask", ":-1")])
def test_mask_cut_like_the_targets_or_about_the_inputs_is_clean(mask, cut):
    assert found(MASK.format(mask=mask, cut=cut), "GL007") == []


# ----- a comment that restates what the code proved stays a formal fact -----------------------------

PROVEN = """
import torch
import torch.nn.functional as F

def flat_nll(scores, gold):
    # scores: (batch, steps, vocab)   gold: (batch, steps)
    logp = F.log_softmax(scores.reshape(-1, scores.size(-1)), dim=-1)
    return -torch.gather(logp, 1, gold.reshape(-1, 1))

if __name__ == "__main__":
    outputs = torch.randn(4, 3, 10)  # (batch, steps, vocab)
    gold = torch.randint(0, 10, (4, 7))
    flat_nll(outputs, gold)
"""


def test_commented_constructor_shape_reaches_the_helper(torch):
    [finding] = found(PROVEN, "GL003")
    assert finding.line == 8 and "28 > 12" in finding.message
    with pytest.raises(RuntimeError, match="Size does not match at dimension 0"):
        run(PROVEN)
    assert found(PROVEN.replace("(4, 7))", "(4, 3))"), "GL003") == []


@pytest.mark.parametrize("key, fires", [("loss_mask", True), ("attention_mask", False)])
def test_mask_read_from_a_batch_dict(key, fires):
    code = f"""
        import torch

        def sequence_logps(lm, batch):
            tokens = batch["input_ids"]
            inputs, targets = tokens[:, :-1], tokens[:, 1:]
            logp = lm(inputs).log_softmax(-1).gather(2, targets.unsqueeze(2)).squeeze(2)
            mask = batch["{key}"][:, :-1]
            return (mask * logp).sum(-1)
        """
    findings = found(code, "GL007")
    assert bool(findings) == fires
    if fires:
        assert f'`batch["{key}"]`' in findings[0].message and findings[0].line == 9
