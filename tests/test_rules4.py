"""Mistakes whose shapes were known but that no rule recognised.

GL022 (static/sign_blind_penalty.py): a repetition penalty that divides the picked logits whatever
their sign. Flagged snippets bind `logits0` (the scores before), `out` (after the penalty) and
`used` (a token id penalised whose logit was negative); torch must show that token's logit *rose*.
"""
import re
import textwrap

import pytest

from .conftest import lint

PENALTY_FLAGGED = [
    ("function-gather-scatter-back", """
        import torch

        def repetition_penalty(logits, repetition_penalty, used_tokens):
            picked = torch.gather(logits, 1, used_tokens)
            return torch.scatter(logits, 1, used_tokens, picked / repetition_penalty)

        logits0 = torch.tensor([[2.0, -1.0, 0.5, -3.0]])
        out = repetition_penalty(logits0.clone(), 1.5, torch.tensor([[0, 1]]))
        used = (0, 1)
    """, 6),
    ("processor-class-call-self-penalty-method-form", """
        import torch

        class RepetitionPenaltyProcessor:
            def __init__(self, penalty: float):
                self.penalty = penalty

            def __call__(self, input_ids, scores):
                # scores: [batch, vocab]
                score = scores.gather(1, input_ids)
                score = score / self.penalty
                scores.scatter_(1, input_ids, score)
                return scores

        logits0 = torch.tensor([[-0.5, 1.0, -2.0], [0.3, -1.0, 2.0]])
        out = RepetitionPenaltyProcessor(1.2)(torch.tensor([[0], [1]]), logits0.clone())
        used = (0, 0)
    """, 12),
    ("helper-from-driver-augmented-division", """
        import torch

        def apply_repetition_penalty(next_logits, generated, p):
            prev = torch.gather(next_logits, -1, generated)
            prev /= p
            next_logits = next_logits.scatter(-1, generated, prev)
            return next_logits

        def generate(step_logits, history, cfg):
            return apply_repetition_penalty(step_logits, history, cfg["repetition_penalty"])

        logits0 = torch.tensor([[1.0, -4.0, 0.0, 2.0]])
        out = generate(logits0.clone(), torch.tensor([[1, 3]]), {"repetition_penalty": 2.0})
        used = (0, 1)
    """, 7),
    ("take-along-dim-keyword-src", """
        import torch

        def penalise(token_scores, seen_ids, presence_penalty=1.3):
            old = torch.take_along_dim(token_scores, seen_ids, dim=1)
            return token_scores.scatter(dim=1, index=seen_ids, src=old / presence_penalty)

        logits0 = torch.tensor([[-1.0, 3.0]])
        out = penalise(logits0.clone(), torch.tensor([[0]]))
        used = (0, 0)
    """, 6),
    ("ctrl-loop-in-place-subscript", """
        import torch

        def sample_step(next_token_logits, generated, repetition_penalty=1.2):
            for i in range(next_token_logits.size(0)):
                for previous_token in set(generated[i].tolist()):
                    next_token_logits[i, previous_token] /= repetition_penalty
            return next_token_logits

        logits0 = torch.tensor([[0.5, -2.0, 1.0]])
        out = sample_step(logits0.clone(), torch.tensor([[1, 1]]))
        used = (0, 1)
    """, 7),
    ("module-level-assign-subscript-division", """
        import torch

        logits0 = torch.tensor([0.5, -2.0, 1.0, -0.1])
        logits = logits0.clone()
        seen = torch.tensor([1, 3])
        penalty = 1.4
        logits[seen] = logits[seen] / penalty
        out = logits
        used = (1,)
    """, 8),
]


@pytest.mark.parametrize("name,code,line", PENALTY_FLAGGED, ids=[c[0] for c in PENALTY_FLAGGED])
def test_penalty_dividing_negative_logits_is_flagged(name, code, line):
    found = [(f.line, f.code) for f in lint(code)]
    assert (line, "GL022") in found, found
    message = next(f.message for f in lint(code) if f.code == "GL022")
    assert "torch.where(" in message and "< 0" in message


@pytest.mark.parametrize("name,code,line", PENALTY_FLAGGED, ids=[c[0] for c in PENALTY_FLAGGED])
def test_penalty_raises_a_negative_logit_in_torch(name, code, line, torch):
    scope = {}
    exec(compile(textwrap.dedent(code), "<snippet>", "exec"), scope)
    used, before, after = scope["used"], scope["logits0"], scope["out"]
    assert before[used] < 0 and after[used] > before[used]  # "a negative logit moves toward 0 and rises"


def test_message_arithmetic_matches_torch(torch):
    assert round((torch.tensor(-2.0) / 1.3).item(), 2) == -1.54


PENALTY_CLEAN = [
    ("sign-aware-where", """
        import torch

        def repetition_penalty(scores, input_ids, penalty):
            score = torch.gather(scores, 1, input_ids)
            score = torch.where(score < 0, score * penalty, score / penalty)
            return scores.scatter(1, input_ids, score)
    """),
    ("sign-tested-in-loop", """
        def step(next_token_logits, generated, repetition_penalty):
            for i in range(next_token_logits.size(0)):
                for tok in set(generated[i].tolist()):
                    if next_token_logits[i, tok] < 0:
                        next_token_logits[i, tok] *= repetition_penalty
                    else:
                        next_token_logits[i, tok] /= repetition_penalty
    """),
    ("probabilities-are-non-negative", """
        import torch

        def penalise(logits, ids, penalty):
            probs = logits.softmax(-1)
            picked = probs.gather(1, ids)
            return probs.scatter(1, ids, picked / penalty)
    """),
    ("temperature-not-a-penalty", """
        import torch

        def sharpen(logits, ids, temperature):
            picked = logits.gather(1, ids)
            return logits.scatter(1, ids, picked / temperature)
    """),
    ("written-to-other-positions", """
        import torch

        def repetition_penalty(logits, used, other, penalty):
            picked = logits.gather(1, used)
            return logits.scatter(1, other, picked / penalty)
    """),
    ("subtractive-presence-penalty", """
        import torch

        def presence(logits, ids, presence_penalty):
            picked = logits.gather(1, ids)
            return logits.scatter(1, ids, picked - presence_penalty)
    """),
]


@pytest.mark.parametrize("name,code", PENALTY_CLEAN, ids=[c[0] for c in PENALTY_CLEAN])
def test_sign_aware_or_non_penalty_divisions_are_clean(name, code):
    assert [f.code for f in lint(code) if f.code == "GL022"] == []


def test_sign_aware_penalty_lowers_every_picked_logit(torch):
    scores = torch.tensor([[2.0, -1.0, 0.5, -3.0]])
    ids = torch.tensor([[0, 1, 3]])
    score = torch.gather(scores, 1, ids)
    out = scores.scatter(1, ids, torch.where(score < 0, score * 1.5, score / 1.5))
    assert (out.gather(1, ids) < score).all()


# GL007 (static/rolled_labels.py): next-token labels made with torch.roll wrap the first token to the end.
# Flagged snippets bind `out` (the rolled loss) and `expected` (the same loss with the shift by slicing).
ROLL_FLAGGED = [
    ("function-jaxtyping-rolled-mask", """
        import torch
        from jaxtyping import Bool, Float, Int
        from torch import Tensor

        def target_nll(scores: Float[Tensor, "n s v"], tokens: Int[Tensor, "n s"], keep: Bool[Tensor, "n s"]):
            nxt = torch.roll(tokens, shifts=-1, dims=1)
            nxt_keep = torch.roll(keep, shifts=-1, dims=1)
            logp = scores.log_softmax(-1)
            tok_lp = logp.gather(-1, nxt.unsqueeze(-1)).squeeze(-1)
            return -(tok_lp * nxt_keep).sum(1)

        scores, tokens = torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5))
        keep = torch.ones(2, 5, dtype=torch.bool)
        out = target_nll(scores, tokens, keep)
        lp = scores[:, :-1].log_softmax(-1)
        expected = -(lp.gather(-1, tokens[:, 1:, None]).squeeze(-1) * keep[:, 1:]).sum(1)
    """, 10),
    ("module-method-roll-unmasked-mean", """
        import torch
        import torch.nn as nn

        class LMHead(nn.Module):
            def __init__(self, vocab, dim):
                super().__init__()
                self.proj = nn.Linear(dim, vocab)

            def forward(self, hidden, input_ids):
                # hidden: [B, T, D], input_ids: [B, T]
                log_probs = self.proj(hidden).log_softmax(dim=-1)
                targets = input_ids.roll(-1, dims=1)
                picked = log_probs.gather(2, targets[..., None]).squeeze(2)
                return -picked.mean()

        torch.manual_seed(0)
        head = LMHead(9, 4)
        hidden, input_ids = torch.randn(3, 6, 4), torch.randint(0, 9, (3, 6))
        out = head(hidden, input_ids)
        lp = head.proj(hidden).log_softmax(-1)[:, :-1]
        expected = -lp.gather(2, input_ids[:, 1:, None]).squeeze(2).mean()
    """, 14),
    ("script-one-sequence-torch-sum", """
        import torch

        def sliced_reference(logits, ids):
            return -logits[:, :-1].log_softmax(-1).gather(2, ids[:, 1:, None]).sum()

        logits = torch.randn(1, 8, 11)  # (1, seq_len, vocab)
        ids = torch.randint(0, 11, (1, 8))
        next_ids = torch.roll(ids, shifts=(-1,), dims=(-1,))
        token_lp = torch.take_along_dim(logits.log_softmax(-1), next_ids[..., None], dim=2).squeeze(2)
        out = -torch.sum(token_lp)
        expected = sliced_reference(logits, ids)
    """, 10),
]


@pytest.mark.parametrize("name,code,line", ROLL_FLAGGED, ids=[c[0] for c in ROLL_FLAGGED])
def test_rolled_labels_are_flagged(name, code, line):
    found = [(f.line, f.code) for f in lint(code)]
    assert (line, "GL007") in found, found
    message = next(f.message for f in lint(code) if f.code == "GL007")
    assert "wraps the first token" in message


@pytest.mark.parametrize("name,code,line", ROLL_FLAGGED, ids=[c[0] for c in ROLL_FLAGGED])
def test_rolled_labels_differ_from_the_sliced_shift_in_torch(name, code, line, torch):
    scope = {}
    exec(compile(textwrap.dedent(code), "<snippet>", "exec"), scope)
    assert not torch.allclose(scope["out"], scope["expected"])


def test_roll_puts_token_zero_at_the_last_position(torch):
    ids = torch.tensor([[5, 6, 7, 8]])
    assert torch.roll(ids, shifts=-1, dims=1).tolist() == [[6, 7, 8, 5]]


ROLL_CLEAN = [
    ("last-label-ignored", """
        import torch
        import torch.nn.functional as F

        def loss(logits, labels):
            shift = torch.roll(labels, shifts=-1, dims=1)
            shift[:, -1] = -100
            lp = logits.log_softmax(-1)
            tok = lp.gather(-1, shift.clamp(min=0).unsqueeze(-1)).squeeze(-1)
            return -(tok * (shift != -100)).sum()
    """),
    ("mask-not-rolled", """
        import torch

        def loss(logits, labels, response_mask):
            nxt = torch.roll(labels, -1, 1)
            tok = logits.log_softmax(-1).gather(-1, nxt.unsqueeze(-1)).squeeze(-1)
            return -(tok * response_mask).sum()
    """),
    ("values-cut-before-sum", """
        import torch

        def loss(logits, labels):
            nxt = labels.roll(-1, dims=-1)
            tok = logits.log_softmax(-1).gather(-1, nxt.unsqueeze(-1)).squeeze(-1)
            return -tok[:, :-1].sum()
    """),
    ("values-handed-on", """
        import torch

        def token_logprobs(logits, labels):
            nxt = torch.roll(labels, shifts=-1, dims=1)
            tok = logits.log_softmax(-1).gather(-1, nxt.unsqueeze(-1)).squeeze(-1)
            return tok
    """),
    ("right-roll-of-positions", """
        import torch

        def shift_right(x, ids):
            prev = torch.roll(ids, shifts=1, dims=1)
            tok = x.gather(-1, prev.unsqueeze(-1)).squeeze(-1)
            return tok.sum()
    """),
    ("in-batch-negatives-roll-over-the-batch", """
        import torch

        def negative_scores(scores, pos_items):
            # scores: [B, N], pos_items: [B]
            neg_items = torch.roll(pos_items, shifts=-1, dims=0)
            return scores.gather(1, neg_items.unsqueeze(1)).squeeze(1).mean()
    """),
    ("no-dims-given", """
        import torch

        def f(x, ids):
            r = torch.roll(ids, -1)
            return x.gather(0, r).sum()
    """),
]


@pytest.mark.parametrize("name,code", ROLL_CLEAN, ids=[c[0] for c in ROLL_CLEAN])
def test_rolled_labels_with_the_last_position_handled_are_clean(name, code):
    assert [f for f in lint(code) if f.code == "GL007"] == []


# A one-dim shape comment `# [agents]` is read when the file's other shape comments use that dim name
# (static/comment_dim_names.py): a scatter's 1-d src then meets its 2-d index (GL001).
LONE_DIM_FLAGGED = [
    ("buffer-method-attribute-and-comment", """
        import torch

        class PriorityTable:
            def __init__(self, slots, workers):
                self.table = torch.ones(slots, workers)  # [slots, workers]

            def refresh(self, errors):
                pick = torch.randint(0, 4, (1, 3))
                fresh = errors.abs() + 1e-3  # [workers]
                self.table.scatter_(0, pick, fresh)

        PriorityTable(4, 3).refresh(torch.randn(3))
    """, 11),
    ("script-parenthesised-dims", """
        import torch

        counts = torch.zeros(5, 7)  # (classes, steps)
        hits = torch.randint(0, 5, (1, 7))
        weights = torch.rand(7)  # (steps)
        counts.scatter_add_(0, hits, weights)
    """, 7),
    ("helper-called-from-driver", """
        import torch

        def write_rows(store, rows, vals):
            # store: [N, K]
            w = vals * 2.0  # [K]
            return store.scatter(0, rows, w)

        def driver():
            store = torch.zeros(6, 4)
            rows = torch.randint(0, 6, (1, 4))
            return write_rows(store, rows, torch.randn(4))

        driver()
    """, 7),
]


@pytest.mark.parametrize("name,code,line", LONE_DIM_FLAGGED, ids=[c[0] for c in LONE_DIM_FLAGGED])
def test_lone_dim_comment_gives_the_src_rank(name, code, line):
    found = [(f.line, f.code) for f in lint(code)]
    assert (line, "GL001") in found, found


@pytest.mark.parametrize("name,code,line", LONE_DIM_FLAGGED, ids=[c[0] for c in LONE_DIM_FLAGGED])
def test_scatter_with_1d_src_and_2d_index_raises_in_torch(name, code, line, torch):
    message = next(f.message for f in lint(code) if f.code == "GL001")
    with pytest.raises((IndexError, RuntimeError)) as raised:
        exec(compile(textwrap.dedent(code), "<snippet>", "exec"), {})
    assert str(raised.value) in message


@pytest.mark.parametrize("index, src, error", [
    ((1, 3), (3,), "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    ((6, 1), (2,), "Index tensor must have the same number of dimensions as src tensor"),
    ((2, 3), (1,), "Index tensor must have the same number of dimensions as src tensor"),
])
def test_one_dim_src_error_follows_the_index_length_on_dim_0(index, src, error, torch):
    code = f"""
        import torch
        out = torch.zeros(6, 5)
        idx = torch.zeros({index}, dtype=torch.long)
        vals = torch.rand({src})
        out.scatter_add_(0, idx, vals)
    """
    message = next(f.message for f in lint(code) if f.code == "GL001")
    assert error in message and message.count("Index tensor") + message.count("Dimension out") == 1
    with pytest.raises((IndexError, RuntimeError), match=re.escape(error)):
        exec(compile(textwrap.dedent(code), "<snippet>", "exec"), {})


def test_lone_word_not_used_as_a_dim_stays_a_note():
    code = """
        import torch

        def f(table, errors):
            # table: [slots, workers]
            idx = torch.randint(0, 4, (1, 3))
            fresh = errors.abs()  # [optional]
            return table.scatter(0, idx, fresh)
    """
    assert [f for f in lint(code) if f.code == "GL001"] == []


# GL022 on the whole tensor: a per-token penalty tensor, or a `where` that picks the seen tokens.
PENALTY_WHOLE_FLAGGED = [
    ("penalty-tensor-scattered-from-ones", """
        import torch

        def apply_penalty(logits, prev_ids, repetition_penalty):
            penalties = torch.ones_like(logits).scatter_(1, prev_ids, repetition_penalty)
            logits = logits / penalties
            return logits

        logits0 = torch.tensor([[1.0, -2.0, 0.5]])
        out = apply_penalty(logits0.clone(), torch.tensor([[1]]), 1.5)
        used = (0, 1)
    """, 6),
    ("where-seen-mask-method", """
        import torch

        class Sampler:
            def __init__(self, penalty):
                self.penalty = penalty

            def adjust(self, scores, seen):
                # scores: [B, V], seen: [B, V] bool
                scores = torch.where(seen, scores / self.penalty, scores)
                return scores

        logits0 = torch.tensor([[-1.0, 2.0, -0.2]])
        out = Sampler(2.0).adjust(logits0.clone(), torch.tensor([[True, True, False]]))
        used = (0, 0)
    """, 10),
    ("boolean-mask-subscript", """
        import torch

        def penalise_seen(next_logits, seen_mask, penalty=1.3):
            next_logits[seen_mask] /= penalty
            return next_logits

        logits0 = torch.tensor([[-3.0, 1.0]])
        out = penalise_seen(logits0.clone(), torch.tensor([[True, False]]))
        used = (0, 0)
    """, 5),
]


@pytest.mark.parametrize("name,code,line", PENALTY_WHOLE_FLAGGED, ids=[c[0] for c in PENALTY_WHOLE_FLAGGED])
def test_whole_tensor_penalty_division_is_flagged(name, code, line):
    found = [(f.line, f.code) for f in lint(code)]
    assert (line, "GL022") in found, found


@pytest.mark.parametrize("name,code,line", PENALTY_WHOLE_FLAGGED, ids=[c[0] for c in PENALTY_WHOLE_FLAGGED])
def test_whole_tensor_penalty_raises_a_negative_logit_in_torch(name, code, line, torch):
    scope = {}
    exec(compile(textwrap.dedent(code), "<snippet>", "exec"), scope)
    used, before, after = scope["used"], scope["logits0"], scope["out"]
    assert before[used] < 0 and after[used] > before[used]


PENALTY_WHOLE_CLEAN = [
    ("beam-length-penalty", """
        def finalize(sum_logprobs, hyp_len, length_penalty):
            score = sum_logprobs / (hyp_len ** length_penalty)
            scores = score / length_penalty
            return scores
    """),
    ("penalty-tensor-by-sign", """
        import torch

        def apply_penalty(logits, prev_ids, p):
            picked = logits.gather(1, prev_ids)
            penalties = torch.ones_like(logits).scatter_(1, prev_ids, torch.where(picked < 0, 1 / p, p))
            logits = logits / penalties
            return logits
    """),
    ("sign-in-where-condition", """
        import torch

        def adjust(scores, penalty):
            scores = torch.where(scores > 0, scores / penalty, scores * penalty)
            return scores
    """),
]


@pytest.mark.parametrize("name,code", PENALTY_WHOLE_CLEAN, ids=[c[0] for c in PENALTY_WHOLE_CLEAN])
def test_length_or_signed_penalties_are_clean(name, code):
    assert [f.code for f in lint(code) if f.code == "GL022"] == []


ROLL_LOSS_FLAGGED = [
    ("functional-cross-entropy-flattened", """
        import torch
        import torch.nn.functional as F

        def lm_loss(logits, input_ids):
            # logits: [B, T, V]
            targets = torch.roll(input_ids, shifts=-1, dims=1)
            return F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))

        torch.manual_seed(0)
        logits, input_ids = torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5))
        out = lm_loss(logits, input_ids)
        expected = F.cross_entropy(logits[:, :-1].reshape(-1, 7), input_ids[:, 1:].reshape(-1))
    """, 8),
    ("module-criterion-method-roll", """
        import torch
        import torch.nn as nn

        class Trainer:
            def step(self, scores, tokens):
                criterion = nn.CrossEntropyLoss(ignore_index=-100)
                nxt = tokens.roll(-1, dims=-1)
                return criterion(scores.view(-1, scores.shape[-1]), nxt.view(-1))

        def sliced(scores, tokens):
            return nn.CrossEntropyLoss()(scores[:, :-1].reshape(-1, 9), tokens[:, 1:].reshape(-1))

        torch.manual_seed(1)
        scores, tokens = torch.randn(3, 4, 9), torch.randint(0, 9, (3, 4))
        out = Trainer().step(scores, tokens)
        expected = sliced(scores, tokens)
    """, 9),
]


@pytest.mark.parametrize("name,code,line", ROLL_LOSS_FLAGGED, ids=[c[0] for c in ROLL_LOSS_FLAGGED])
def test_rolled_labels_as_a_loss_target_are_flagged(name, code, line, torch):
    found = [(f.line, f.code) for f in lint(code)]
    assert (line, "GL007") in found, found
    scope = {}
    exec(compile(textwrap.dedent(code), "<snippet>", "exec"), scope)
    assert not torch.allclose(scope["out"], scope["expected"])


def test_rolled_loss_target_with_the_last_label_ignored_is_clean():
    code = """
        import torch
        import torch.nn.functional as F

        def lm_loss(logits, input_ids):
            labels = input_ids.roll(-1, dims=1)
            labels[:, -1] = -100
            return F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)
    """
    assert [f for f in lint(code) if f.code == "GL007"] == []


def test_inline_roll_as_gather_index_is_flagged(torch):
    code = """
        import torch

        def seq_nll(logits, ids):
            token_lp = torch.log_softmax(logits, -1).gather(-1, torch.roll(ids, -1, 1).unsqueeze(-1))
            return -token_lp.sum()
    """
    found = [f for f in lint(code) if f.code == "GL007"]
    assert [f.line for f in found] == [5] and "`torch.roll(ids, -1, 1)` wraps" in found[0].message
    ids = torch.tensor([[3, 1, 2]])
    assert torch.roll(ids, -1, 1)[0, -1] == ids[0, 0]


def test_abbreviated_penalty_in_a_repetition_helper_is_flagged(torch):
    code = """
        def apply_repetition(logits, prev_tokens, rep_pen):
            for t in prev_tokens:
                logits[t] /= rep_pen
            return logits
    """
    assert [f.line for f in lint(code) if f.code == "GL022"] == [4]
    logits = torch.tensor([-2.0, 1.0])
    logits[0] /= 1.3
    assert logits[0] > -2.0


def test_penalty_read_by_advanced_index_and_written_back_is_flagged(torch):
    code = """
        import torch

        def penalize(logits, prev_ids, repetition_penalty):
            rows = torch.arange(logits.size(0)).unsqueeze(1)
            score = logits[rows, prev_ids]
            logits[rows, prev_ids] = score / repetition_penalty
            return logits

        logits0 = torch.tensor([[0.5, -1.5, 2.0]])
        out = penalize(logits0.clone(), torch.tensor([[1, 2]]), 1.5)
        used = (0, 1)
    """
    assert [f.line for f in lint(code) if f.code == "GL022"] == [7]
    scope = {}
    exec(compile(textwrap.dedent(code), "<snippet>", "exec"), scope)
    assert scope["out"][scope["used"]] > scope["logits0"][scope["used"]]


def test_rolled_labels_into_a_criterion_attribute_are_flagged(torch):
    code = """
        import torch
        import torch.nn as nn

        class CharLM(nn.Module):
            def __init__(self, vocab):
                super().__init__()
                self.emb = nn.Embedding(vocab, 8)
                self.out = nn.Linear(8, vocab)
                self.criterion = nn.CrossEntropyLoss()

            def forward(self, chars):
                logits = self.out(self.emb(chars))
                targets = torch.roll(chars, shifts=-1, dims=1)
                return self.criterion(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
    """
    assert [f.line for f in lint(code) if f.code == "GL007"] == [15]
    chars = torch.tensor([[1, 2, 3]])
    assert torch.roll(chars, shifts=-1, dims=1)[0, -1] == chars[0, 0]
