"""GL018 on a softmax wrong by its own dim, whatever reads it (static/degenerate_softmax.py): over a dim
of size 1 (every weight is 1.0) or over a batch flattened with another dim (each distribution spans
several samples).

Flagged snippets bind `out` (the weights as computed) and `expected` (each sample's own distribution
over its alternatives); torch must give `out != expected`. Clean snippets must give no finding.
"""
import pytest

from .conftest import lint
from .snippets import run_snippet

SINGLETON = [
    ("module-linear-scorer-jaxtyping", """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from jaxtyping import Float
        from torch import Tensor

        class AttentionPool(nn.Module):
            def __init__(self, dim: int):
                super().__init__()
                self.score = nn.Linear(dim, 1)

            def forward(self, h: Float[Tensor, "batch steps dim"]) -> Float[Tensor, "batch dim"]:
                weights = F.softmax(self.score(h), dim=-1)
                return (weights * h).sum(1), weights

        if __name__ == "__main__":
            pool = AttentionPool(6)
            h = torch.randn(2, 5, 6)
            _, out = pool(h)
            expected = F.softmax(pool.score(h), dim=1)
    """, 14),
    ("function-column-comment", """
        import torch

        def pooled(states, scorer):
            n, d = states.shape
            scores = scorer(states)  # [n, 1]
            probs = torch.softmax(scores, dim=1)
            return probs

        if __name__ == "__main__":
            scorer = torch.nn.Linear(4, 1)
            states = torch.randn(7, 4)
            out = pooled(states, scorer)
            expected = torch.softmax(scorer(states), dim=0)
    """, 7),
    ("helper-from-driver-docstring-log-softmax", """
        import torch
        import torch.nn as nn

        def frame_log_weights(logits):
            \"\"\"Log attention weights of each frame.

            Args:
                logits: (batch, frames, 1) frame scores.
            \"\"\"
            return logits.log_softmax(dim=2)

        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(8, 1)

            def forward(self, x):
                return frame_log_weights(self.proj(x))

        if __name__ == "__main__":
            head = Head()
            x = torch.randn(3, 4, 8)
            out = head(x)
            expected = head.proj(x).log_softmax(dim=1)
    """, 11),
    ("layer-softmax-constructor", """
        import torch
        import torch.nn as nn

        class Gate(nn.Module):
            def __init__(self, width):
                super().__init__()
                self.to_logit = nn.Linear(width, 1)
                self.norm = nn.Softmax(dim=-1)

            def forward(self, tokens):
                return self.norm(self.to_logit(tokens))

        if __name__ == "__main__":
            gate = Gate(5)
            tokens = torch.randn(2, 3, 5)
            out = gate(tokens)
            expected = torch.softmax(gate.to_logit(tokens), dim=1)
    """, 9),
    ("driver-constructor-keepdim-scores", """
        import torch

        def attend(q, k, v):
            scores = (q * k).sum(-1, keepdim=True)
            w = torch.softmax(scores, dim=-1)
            return (w * v).sum(1), w

        if __name__ == "__main__":
            q, k, v = torch.randn(2, 5, 3), torch.randn(2, 5, 3), torch.randn(2, 5, 3)
            _, out = attend(q, k, v)
            expected = torch.softmax((q * k).sum(-1, keepdim=True), dim=1)
    """, 6),
    ("script-unsqueezed-logits-log-softmax-method", """
        import torch
        import torch.nn as nn

        class ValueHead(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.v = nn.Linear(d, 3)

            def forward(self, h):
                logits = self.v(h).mean(-1).unsqueeze(-1)
                return logits.log_softmax(-1)

        if __name__ == "__main__":
            head = ValueHead(4)
            h = torch.randn(6, 4)
            out = head(h)
            expected = head.v(h).mean(-1).unsqueeze(-1).log_softmax(0)
    """, 12),
    ("sequential-ending-in-softmax-comment", """
        import torch
        import torch.nn as nn

        class InstancePool(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.attention = nn.Sequential(nn.Linear(d, 16), nn.Tanh(), nn.Linear(16, 1), nn.Softmax(dim=1))

            def forward(self, h):
                # h: [N, D] the instances of one bag
                a = self.attention(h)
                return (a * h).sum(0), a

        if __name__ == "__main__":
            pool = InstancePool(4)
            h = torch.randn(5, 4)
            _, out = pool(h)
            expected = torch.softmax(pool.attention[:3](h), dim=0)
    """, 8),
]

FLATTENED = [
    ("layer-dim0-jaxtyping-view", """
        import torch
        import torch.nn as nn
        from jaxtyping import Float
        from torch import Tensor

        class Scorer(nn.Module):
            def __init__(self):
                super().__init__()
                self.normalise = nn.Softmax(dim=0)

            def forward(self, q: Float[Tensor, "batch tq dim"], k: Float[Tensor, "batch tk dim"]):
                batch, tq, _ = q.shape
                tk = k.shape[1]
                scores = torch.bmm(q, k.transpose(1, 2)).view(batch * tq, tk)
                return self.normalise(scores).view(batch, tq, tk)

        if __name__ == "__main__":
            q, k = torch.randn(2, 3, 4), torch.randn(2, 5, 4)
            out = Scorer()(q, k)
            expected = torch.softmax(torch.bmm(q, k.transpose(1, 2)), dim=-1)
    """, 10),
    ("function-docstring-reshape-functional", """
        import torch
        import torch.nn.functional as F

        def weights(scores):
            \"\"\"Per-head attention weights.

            Args:
                scores: (bsz, heads, n) raw scores.
            \"\"\"
            bsz, heads, n = scores.shape
            flat = scores.reshape(bsz * heads, n)
            return F.softmax(flat, dim=0)

        if __name__ == "__main__":
            scores = torch.randn(2, 3, 4)
            out = weights(scores).view(2, 3, 4)
            expected = F.softmax(scores, dim=-1)
    """, 13),
    ("comment-shapes-torch-softmax", """
        import torch

        def mix(scores, values):
            # scores: [B, T, S]
            B, T, S = scores.shape
            flat = scores.view(B * T, S)  # [B*T, S]
            w = torch.softmax(flat, 0).view(B, T, S)
            return torch.bmm(w, values), w

        if __name__ == "__main__":
            scores, values = torch.randn(2, 3, 4), torch.randn(2, 4, 5)
            _, out = mix(scores, values)
            expected = torch.softmax(scores, dim=-1)
    """, 8),
]

CLEAN = [
    ("softmax-over-steps-of-column", """
        import torch
        import torch.nn as nn

        class AttentionPool(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.score = nn.Linear(dim, 1)

            def forward(self, h):
                # h: [B, T, D]
                w = torch.softmax(self.score(h), dim=1)  # [B, T, 1]
                return (w * h).sum(1)

        pool = AttentionPool(4)
        out = pool(torch.randn(2, 3, 4))
    """),
    ("flattened-rows-normalised-over-last", """
        import torch
        import torch.nn.functional as F

        def weights(scores):
            # scores: [B, T, S]
            B, T, S = scores.shape
            return F.softmax(scores.view(B * T, S), dim=-1).view(B, T, S)

        out = weights(torch.randn(2, 3, 4))
    """),
    ("contrastive-flattened-both-dims", """
        import torch
        import torch.nn.functional as F

        def loss(feats):
            # feats: [B, V, D]
            B, V, D = feats.shape
            flat = feats.reshape(B * V, D)
            sim = flat @ flat.t()  # [B*V, B*V]
            return F.log_softmax(sim, dim=0)

        out = loss(torch.randn(2, 3, 4))
    """),
    ("batch-times-heads-last-dim-layer", """
        import torch
        import torch.nn as nn

        class Attn(nn.Module):
            def __init__(self):
                super().__init__()
                self.softmax = nn.Softmax(dim=-1)
                self.gate = nn.Linear(4, 1)

            def forward(self, scores):
                # scores: [bsz, heads, n, n]
                bsz, heads, n, _ = scores.shape
                return self.softmax(scores.view(bsz * heads, n, n))

        out = Attn()(torch.randn(2, 3, 4, 4))
    """),
    ("one-token-prompt-from-driver", """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Head(nn.Module):
            def __init__(self, n_embd, head_size):
                super().__init__()
                self.key = nn.Linear(n_embd, head_size, bias=False)
                self.query = nn.Linear(n_embd, head_size, bias=False)

            def forward(self, x):
                B, T, C = x.shape
                wei = self.query(x) @ self.key(x).transpose(-2, -1) * C ** -0.5  # (B, T, T)
                return F.softmax(wei, dim=-1)

        def attend(q, k):
            return torch.softmax(q @ k.transpose(-2, -1), dim=-1)

        if __name__ == "__main__":
            first_step = Head(8, 4)(torch.randn(1, 1, 8))  # one position to attend to: a weight of 1 is right
            w = attend(torch.randn(1, 1, 4), torch.randn(1, 1, 4))
    """),
    ("sigmoid-gate-of-column", """
        import torch
        import torch.nn as nn

        class Gate(nn.Module):
            def __init__(self, width):
                super().__init__()
                self.to_logit = nn.Linear(width, 1)

            def forward(self, tokens):
                g = torch.sigmoid(self.to_logit(tokens))  # [B, T, 1]
                return torch.softmax(tokens, dim=-1) * g

        out = Gate(5)(torch.randn(2, 3, 5))
    """),
]


@pytest.mark.parametrize("name,code,line", SINGLETON + FLATTENED, ids=[c[0] for c in SINGLETON + FLATTENED])
def test_flagged(name, code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL018", line) in found, found


@pytest.mark.parametrize("name,code,line", SINGLETON, ids=[c[0] for c in SINGLETON])
def test_singleton_message_says_every_weight_is_constant(name, code, line):
    message = next(f.message for f in lint(code) if f.code == "GL018")
    assert "has size 1" in message and ("exactly 1.0" in message or "exactly 0.0" in message)


@pytest.mark.parametrize("name,code,line", FLATTENED, ids=[c[0] for c in FLATTENED])
def test_flattened_message_names_the_batch(name, code, line):
    message = next(f.message for f in lint(code) if f.code == "GL018")
    assert "the batch flattened with another dim" in message


@pytest.mark.parametrize("name,code,line", SINGLETON, ids=[c[0] for c in SINGLETON])
def test_torch_gives_constant_weights_over_a_singleton_dim(name, code, line, torch):
    scope = run_snippet(code)
    out, expected = scope["out"], scope["expected"]
    constant = torch.zeros_like(out) if bool((out <= 0).all()) else torch.ones_like(out)
    assert torch.equal(out, constant)  # every weight exactly 1.0 (log-weight 0.0): the claim
    assert not torch.allclose(out, expected)


@pytest.mark.parametrize("name,code,line", FLATTENED, ids=[c[0] for c in FLATTENED])
def test_torch_mixes_samples_over_a_flattened_batch(name, code, line, torch):
    scope = run_snippet(code)
    out, expected = scope["out"], scope["expected"]
    assert not torch.allclose(out.sum(-1), torch.ones_like(out.sum(-1)))  # rows are not distributions
    assert not torch.allclose(out, expected)


@pytest.mark.parametrize("name,code", CLEAN, ids=[c[0] for c in CLEAN])
def test_clean(name, code, torch):
    assert [f for f in lint(code) if f.code == "GL018"] == []
    run_snippet(code)


# F.cross_entropy / F.nll_loss on one class (static/one_class_loss.py): each snippet binds `loss` from
# binary targets; torch raises 'Target 1 is out of bounds.', and all-zero targets give a loss of exactly 0.
ONE_CLASS = [
    ("module-linear-one-unit-criterion", """
        import torch
        import torch.nn as nn

        class Classifier(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.out = nn.Linear(dim, 1)
                self.criterion = nn.CrossEntropyLoss()

            def forward(self, feats, labels):
                return self.criterion(self.out(feats), labels)

        if __name__ == "__main__":
            model = Classifier(4)
            feats = torch.randn(6, 4)
            make = lambda labels: model(feats, labels)
            loss = model(feats, torch.zeros(6, dtype=torch.long))
    """, 12),
    ("function-comment-functional", """
        import torch
        import torch.nn.functional as F

        def loss_of(scores, target):
            # scores: [N, 1]
            return F.cross_entropy(scores, target)

        if __name__ == "__main__":
            scores = torch.randn(6, 1)
            make = lambda labels: loss_of(scores, labels)
    """, 7),
    ("helper-jaxtyping-nll-from-driver", """
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float, Int
        from torch import Tensor

        def nll(logp: Float[Tensor, "batch 1"], y: Int[Tensor, "batch"]) -> Float[Tensor, ""]:
            return F.nll_loss(logp, y)

        def score(head, x, y):
            return nll(F.log_softmax(head(x), dim=1), y)

        if __name__ == "__main__":
            head = torch.nn.Linear(3, 1)
            x = torch.randn(6, 3)
            make = lambda labels: score(head, x, labels)
    """, 8),
]

ONE_CLASS_CLEAN = [
    ("two-units", """
        import torch
        import torch.nn as nn

        class Classifier(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.out = nn.Linear(dim, 2)
                self.criterion = nn.CrossEntropyLoss()

            def forward(self, feats, labels):
                return self.criterion(self.out(feats), labels)

        if __name__ == "__main__":
            loss = Classifier(4)(torch.randn(6, 4), torch.randint(0, 2, (6,)))
    """),
    ("one-logit-with-bce", """
        import torch
        import torch.nn.functional as F

        def loss_of(scores, target):
            # scores: [N, 1]
            return F.binary_cross_entropy_with_logits(scores.squeeze(1), target.float())

        if __name__ == "__main__":
            loss = loss_of(torch.randn(6, 1), torch.randint(0, 2, (6,)))
    """),
]


@pytest.mark.parametrize("name,code,line", ONE_CLASS, ids=[c[0] for c in ONE_CLASS])
def test_one_class_loss_flagged(name, code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL011", line) in found, found
    message = next(f.message for f in lint(code) if f.code == "GL011")
    assert "1 class along dim 1" in message and "Target 1 is out of bounds" in message


@pytest.mark.parametrize("name,code,line", ONE_CLASS, ids=[c[0] for c in ONE_CLASS])
def test_torch_one_class_loss_raises_or_is_zero(name, code, line, torch):
    make = run_snippet(code)["make"]
    with pytest.raises(IndexError, match="Target 1 is out of bounds"):
        make(torch.tensor([0, 1, 0, 1, 1, 0]))
    assert make(torch.zeros(6, dtype=torch.long)).item() == 0.0


@pytest.mark.parametrize("name,code", ONE_CLASS_CLEAN, ids=[c[0] for c in ONE_CLASS_CLEAN])
def test_one_class_loss_clean(name, code, torch):
    assert lint(code) == []
    run_snippet(code)


# GL007: the tokens appended at the end of a concatenation scored at its first positions
# (static/continuation_slices.py). Each snippet binds `out` (the buggy scores), `expected` (each
# appended token scored at its own position, by a loop) and `fixed` (the last positions taken).
FRONT_SLICES = [
    ("function-constructors-log-softmax-gather", """
        import torch
        import torch.nn as nn

        def response_logps(model, context, response):
            ids = torch.cat([context, response], dim=1)
            logp = model(ids).log_softmax(-1)
            n = response.size(1)
            return logp[:, :n].gather(-1, response.unsqueeze(-1)).squeeze(-1), logp

        if __name__ == "__main__":
            torch.manual_seed(0)
            model = nn.Sequential(nn.Embedding(20, 8), nn.Linear(8, 20))
            context, response = torch.randint(0, 20, (2, 4)), torch.randint(0, 20, (2, 3))
            out, logp = response_logps(model, context, response)
            expected = torch.stack([torch.stack([logp[b, 4 + t, response[b, t]] for t in range(3)]) for b in range(2)])
            fixed = logp[:, -3:].gather(-1, response.unsqueeze(-1)).squeeze(-1)
    """, 9),
    ("module-jaxtyping-torch-gather", """
        import torch
        import torch.nn as nn
        from jaxtyping import Int
        from torch import Tensor

        class Scorer(nn.Module):
            def __init__(self, vocab: int, dim: int):
                super().__init__()
                self.lm = nn.Sequential(nn.Embedding(vocab, dim), nn.Linear(dim, vocab))

            def forward(self, query: Int[Tensor, "b q"], answer: Int[Tensor, "b a"]):
                tokens = torch.cat((query, answer), dim=-1)
                logits = self.lm(tokens)
                k = answer.shape[1]
                return torch.gather(logits[:, :k].log_softmax(-1), 2, answer[..., None]).squeeze(-1), logits

        if __name__ == "__main__":
            torch.manual_seed(0)
            scorer = Scorer(15, 6)
            query, answer = torch.randint(0, 15, (3, 5)), torch.randint(0, 15, (3, 2))
            out, logits = scorer(query, answer)
            logp = logits.log_softmax(-1)
            expected = torch.stack([torch.stack([logp[b, 5 + t, answer[b, t]] for t in range(2)]) for b in range(3)])
            fixed = torch.gather(logits[:, -2:].log_softmax(-1), 2, answer[..., None]).squeeze(-1)
    """, 16),
    ("unbatched-comment-len-advanced-index", """
        import torch

        def completion_scores(head, prompt, completion):
            seq = torch.cat([prompt, completion])  # [L]
            scores = head(seq)  # [L, V]
            m = len(completion)
            return scores[:m][torch.arange(m), completion], scores

        if __name__ == "__main__":
            torch.manual_seed(0)
            head = torch.nn.Sequential(torch.nn.Embedding(12, 4), torch.nn.Linear(4, 12))
            prompt, completion = torch.randint(0, 12, (6,)), torch.randint(0, 12, (3,))
            out, scores = completion_scores(head, prompt, completion)
            expected = torch.stack([scores[6 + t, completion[t]] for t in range(3)])
            fixed = scores[-3:][torch.arange(3), completion]
    """, 8),
]

FRONT_SLICES_CLEAN = [
    ("last-positions", """
        import torch
        import torch.nn as nn

        def response_logps(model, context, response):
            ids = torch.cat([context, response], dim=1)
            logp = model(ids).log_softmax(-1)
            n = response.size(1)
            return logp[:, -n:].gather(-1, response.unsqueeze(-1)).squeeze(-1)

        if __name__ == "__main__":
            model = nn.Sequential(nn.Embedding(20, 8), nn.Linear(8, 20))
            out = response_logps(model, torch.randint(0, 20, (2, 4)), torch.randint(0, 20, (2, 3)))
    """),
    ("front-part-scored-at-the-front", """
        import torch
        import torch.nn as nn

        def prompt_logps(model, prompt, response):
            ids = torch.cat([prompt, response], dim=1)
            logp = model(ids).log_softmax(-1)
            n = prompt.size(1)
            return logp[:, :n].gather(-1, prompt.unsqueeze(-1)).squeeze(-1)

        if __name__ == "__main__":
            model = nn.Sequential(nn.Embedding(20, 8), nn.Linear(8, 20))
            out = prompt_logps(model, torch.randint(0, 20, (2, 4)), torch.randint(0, 20, (2, 3)))
    """),
    ("model-keeps-only-the-tail", """
        import torch
        import torch.nn as nn

        def response_logps(model, context, response):
            ids = torch.cat([context, response], dim=1)
            n = response.size(1)
            logp = model(ids)[:, -n:].log_softmax(-1)
            return logp[:, :n].gather(-1, response.unsqueeze(-1)).squeeze(-1)

        if __name__ == "__main__":
            model = nn.Sequential(nn.Embedding(20, 8), nn.Linear(8, 20))
            out = response_logps(model, torch.randint(0, 20, (2, 4)), torch.randint(0, 20, (2, 3)))
    """),
]


@pytest.mark.parametrize("name,code,line", FRONT_SLICES, ids=[c[0] for c in FRONT_SLICES])
def test_front_slice_flagged(name, code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL007", line) in found, found


@pytest.mark.parametrize("name,code,line", FRONT_SLICES, ids=[c[0] for c in FRONT_SLICES])
def test_torch_front_slice_scores_other_positions(name, code, line, torch):
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"])
    assert torch.allclose(scope["fixed"], scope["expected"])


@pytest.mark.parametrize("name,code", FRONT_SLICES_CLEAN, ids=[c[0] for c in FRONT_SLICES_CLEAN])
def test_front_slice_clean(name, code, torch):
    assert [f for f in lint(code) if f.code == "GL007"] == []
    run_snippet(code)
