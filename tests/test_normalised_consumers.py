"""GL018 without a gather: a softmax / log_softmax read along another dim by nll_loss, multinomial, or a
logsumexp / argmax when the softmax ran over the batch (static/normalised_consumers.py).

Every snippet binds `out` (what the code computes) and `expected` (what its author meant, by a plain
loop). Flagged snippets also bind `fixed` (the softmax over the dim the message names); torch must give
`out != expected` and `fixed == expected`. Silent snippets are right in torch.
"""

import pytest

from .conftest import lint
from .snippets import run_snippet

FLAGGED = [
    ("classifier-forward-returns-batch-log-softmax", """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class TextClassifier(nn.Module):
            def __init__(self, vocab, n_classes):
                super().__init__()
                self.bag = nn.EmbeddingBag(vocab, 8)
                self.head = nn.Linear(8, n_classes)

            def forward(self, tokens):
                feats = self.bag(tokens).view(-1, 8)
                return F.log_softmax(self.head(feats), dim=0)

        def step(net, tokens, labels):
            return F.nll_loss(net(tokens), labels)

        net = TextClassifier(vocab=20, n_classes=3)
        tokens = torch.randint(0, 20, (6, 5))
        labels = torch.randint(0, 3, (6,))
        out = step(net, tokens, labels)
        scores = net.head(net.bag(tokens))
        expected = -torch.stack([torch.log_softmax(scores[i], 0)[labels[i]] for i in range(6)]).mean()
        fixed = F.nll_loss(F.log_softmax(scores, dim=1), labels)
    """, 14),
    ("plain-function-comment-shapes", """
        import torch
        import torch.nn.functional as F

        def tagger_loss(emissions, gold):
            # emissions: [N, C] scores of every word, gold: [N]
            logp = torch.log_softmax(emissions, 0)
            return F.nll_loss(logp, gold, reduction="sum")

        emissions = torch.randn(7, 4)
        gold = torch.randint(0, 4, (7,))
        out = tagger_loss(emissions, gold)
        expected = -sum(torch.log_softmax(emissions[i], 0)[gold[i]] for i in range(7))
        fixed = F.nll_loss(torch.log_softmax(emissions, 1), gold, reduction="sum")
    """, 7),
    ("jaxtyping-helper-and-nll-loss-module", """
        import torch
        import torch.nn as nn
        from jaxtyping import Float
        from torch import Tensor

        def class_log_probs(scores: Float[Tensor, "batch classes"]) -> Float[Tensor, "batch classes"]:
            return scores.log_softmax(dim=0)

        criterion = nn.NLLLoss()
        scores = torch.randn(5, 3)
        target = torch.tensor([2, 0, 1, 1, 0])
        out = criterion(class_log_probs(scores), target)
        expected = -torch.stack([torch.log_softmax(scores[i], 0)[target[i]] for i in range(5)]).mean()
        fixed = criterion(scores.log_softmax(dim=1), target)
    """, 8),
    ("implicit-dim-on-3d-docstring", """
        import torch
        import torch.nn.functional as F

        def segmentation_loss(logits, mask):
            \"\"\"Per-pixel classification loss.

            Args:
                logits: class scores of shape (B, C, L).
                mask: class of every position, shape (B, L).
            \"\"\"
            return F.nll_loss(F.log_softmax(logits), mask)

        logits = torch.randn(2, 3, 4)
        mask = torch.randint(0, 3, (2, 4))
        out = segmentation_loss(logits, mask)
        expected = -torch.stack([torch.log_softmax(logits[b, :, t], 0)[mask[b, t]]
                                 for b in range(2) for t in range(4)]).mean()
        fixed = F.nll_loss(F.log_softmax(logits, dim=1), mask)
    """, 12),
    ("multinomial-rows-of-column-softmax", """
        import torch

        logits = torch.tensor([[0.0, 20.0, 0.0], [0.0, 0.0, 20.0]])  # [B, V]
        probs = torch.softmax(logits, dim=0)
        g = torch.Generator().manual_seed(0)
        out = (torch.multinomial(probs, 3000, replacement=True, generator=g)[0] == 1).float().mean()
        expected = torch.softmax(logits[0], 0)[1]
        g = torch.Generator().manual_seed(0)
        fixed = (torch.multinomial(torch.softmax(logits, dim=1), 3000, replacement=True, generator=g)[0] == 1).float().mean()
    """, 5),
    ("mixture-log-weights-over-batch-jaxtyping", """
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float
        from torch import Tensor

        def mixture_nll(weight_logits: Float[Tensor, "batch comp"], comp_logp: Float[Tensor, "batch comp"]):
            log_w = F.log_softmax(weight_logits, dim=0)
            return -torch.logsumexp(log_w + comp_logp, dim=-1)

        weight_logits, comp_logp = torch.randn(4, 3), torch.randn(4, 3)
        out = mixture_nll(weight_logits, comp_logp)
        expected = torch.stack([-torch.logsumexp(torch.log_softmax(weight_logits[b], 0) + comp_logp[b], 0)
                                for b in range(4)])
        fixed = -torch.logsumexp(F.log_softmax(weight_logits, dim=1) + comp_logp, dim=-1)
    """, 8),
    ("argmax-of-batch-softmax-in-a-method", """
        import torch

        class Voter:
            def predict(self, scores):
                # scores: [bs, n_options]
                probs = scores.softmax(0)
                return probs.argmax(dim=1)

        scores = torch.tensor([[2.0, 3.0], [0.0, 9.0], [1.0, 0.0]])
        out = Voter().predict(scores)
        expected = torch.stack([scores[i].softmax(0).argmax() for i in range(3)])
        fixed = scores.softmax(1).argmax(dim=1)
    """, 7),
    ("cross-entropy-module-on-batch-log-softmax-docstring", """
        import torch
        import torch.nn as nn

        def ranking_loss(scores, gold):
            \"\"\"Loss of picking the gold candidate.

            Args:
                scores (Tensor): candidate scores, shape (B, K).
                gold (Tensor): index of the gold candidate, shape (B,).
            \"\"\"
            logp = torch.log_softmax(scores, dim=0)
            return nn.CrossEntropyLoss()(logp, gold)

        scores = torch.randn(5, 4)
        gold = torch.randint(0, 4, (5,))
        out = ranking_loss(scores, gold)
        expected = -torch.stack([torch.log_softmax(scores[i], 0)[gold[i]] for i in range(5)]).mean()
        fixed = nn.CrossEntropyLoss()(torch.log_softmax(scores, dim=1), gold)
    """, 12),
    ("soft-value-expectation-over-actions-of-batch-softmax", """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def soft_value(logits: Float[Tensor, "batch actions"], q: Float[Tensor, "batch actions"], alpha: float):
            probs = torch.softmax(logits, dim=0)
            return (probs * (q - alpha * torch.log(probs))).sum(dim=1)

        logits, q = torch.randn(6, 3), torch.randn(6, 3)
        out = soft_value(logits, q, 0.2)
        expected = torch.stack([(torch.softmax(logits[b], 0) * (q[b] - 0.2 * torch.log_softmax(logits[b], 0))).sum()
                                for b in range(6)])
        probs = torch.softmax(logits, dim=1)
        fixed = (probs * (q - 0.2 * torch.log(probs))).sum(dim=1)
    """, 7),
    ("categorical-policy-from-batch-softmax", """
        import torch
        from torch.distributions import Categorical

        def act_log_prob(logits, actions):
            # logits: [B, A], actions: [B]
            probs = logits.softmax(dim=0)
            return Categorical(probs=probs).log_prob(actions)

        logits = torch.tensor([[2.0, 0.0, 1.0], [0.0, 3.0, 0.0], [1.0, 1.0, 4.0]])
        actions = torch.tensor([0, 1, 2])
        out = act_log_prob(logits, actions)
        expected = torch.stack([torch.log_softmax(logits[b], 0)[actions[b]] for b in range(3)])
        fixed = Categorical(probs=logits.softmax(dim=1)).log_prob(actions)
    """, 7),
    ("manual-nll-arange-pick-comment-shapes", """
        import torch

        def manual_nll(scores, labels):
            # scores: [N, C]
            probs = torch.softmax(scores, dim=0)
            return -torch.log(probs[torch.arange(scores.size(0)), labels])

        scores, labels = torch.randn(5, 3), torch.randint(0, 3, (5,))
        out = manual_nll(scores, labels)
        expected = torch.stack([-torch.log_softmax(scores[i], 0)[labels[i]] for i in range(5)])
        fixed = -torch.log(torch.softmax(scores, dim=1)[torch.arange(5), labels])
    """, 6),
    ("reinforce-range-pick-jaxtyping", """
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float, Int
        from torch import Tensor

        def reinforce_terms(logits: Float[Tensor, "steps actions"], actions: Int[Tensor, "steps"],
                            returns: Float[Tensor, "steps"]) -> Float[Tensor, "steps"]:
            logp = F.log_softmax(logits, dim=0)
            return -logp[range(logits.shape[0]), actions] * returns

        logits, actions, returns = torch.randn(6, 4), torch.randint(0, 4, (6,)), torch.randn(6)
        out = reinforce_terms(logits, actions, returns)
        expected = torch.stack([-torch.log_softmax(logits[t], 0)[actions[t]] * returns[t] for t in range(6)])
        fixed = -F.log_softmax(logits, dim=1)[range(6), actions] * returns
    """, 9),
    ("log-softmax-layer-attribute-and-nll-loss-module", """
        import torch
        import torch.nn as nn

        class Classifier(nn.Module):
            def __init__(self, d, k):
                super().__init__()
                self.fc = nn.Linear(d, k)
                self.out = nn.LogSoftmax(dim=0)

            def forward(self, x):
                return self.out(self.fc(x).view(-1, self.fc.out_features))

        net = Classifier(4, 3)
        x, y = torch.randn(6, 4), torch.randint(0, 3, (6,))
        out = nn.NLLLoss()(net(x), y).detach()
        scores = net.fc(x).detach()
        expected = -torch.stack([torch.log_softmax(scores[i], 0)[y[i]] for i in range(6)]).mean()
        fixed = nn.NLLLoss()(torch.log_softmax(scores, dim=1), y)
    """, 9),
    ("sequential-ending-in-softmax-layer-sampled", """
        import torch
        import torch.nn as nn

        policy = nn.Sequential(nn.Linear(3, 4), nn.Softmax(dim=0))
        obs = torch.tensor([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
        with torch.no_grad():
            policy[0].weight.zero_()
            policy[0].bias.copy_(torch.tensor([0.0, 20.0, 0.0, 0.0]))
            obs[1, 0] = 1.0
            policy[0].weight[3, 0] = 40.0
        g = torch.Generator().manual_seed(0)
        out = (torch.multinomial(policy(obs), 2000, replacement=True, generator=g)[0] == 1).float().mean()
        expected = torch.softmax(policy[0](obs)[0], 0)[1].detach()
        g = torch.Generator().manual_seed(0)
        probs = torch.softmax(policy[0](obs), dim=1).detach()
        fixed = (torch.multinomial(probs, 2000, replacement=True, generator=g)[0] == 1).float().mean()
    """, 5),
]

SILENT = [
    ("range-pick-of-a-class-softmax", """
        import torch

        scores, labels = torch.randn(5, 3), torch.randint(0, 3, (5,))  # [N, C], [N]
        probs = torch.softmax(scores, dim=1)
        out = -torch.log(probs[range(len(labels)), labels])
        expected = torch.stack([-torch.log_softmax(scores[i], 0)[labels[i]] for i in range(5)])
    """),
    ("log-softmax-layer-over-classes", """
        import torch
        import torch.nn as nn

        head = nn.Sequential(nn.Linear(4, 3), nn.LogSoftmax(dim=1))
        x, y = torch.randn(6, 4), torch.randint(0, 3, (6,))
        out = nn.NLLLoss()(head(x), y).detach()
        scores = head[0](x).detach()
        expected = -torch.stack([torch.log_softmax(scores[i], 0)[y[i]] for i in range(6)]).mean()
    """),
    ("expectation-summed-over-the-normalised-dim", """
        import torch

        w_logits = torch.randn(6, 3)  # [batch, K]
        values = torch.randn(6, 3)  # [batch, K]
        weights = w_logits.softmax(dim=0)
        out = (weights * values).sum(dim=0)
        expected = torch.stack([(torch.softmax(w_logits[:, k], 0) * values[:, k]).sum() for k in range(3)])
    """),
    ("cross-entropy-on-raw-scores", """
        import torch
        import torch.nn.functional as F

        scores = torch.randn(5, 3)  # [B, C]
        probs = torch.softmax(scores, dim=0)  # reported elsewhere, not given to the loss
        target = torch.randint(0, 3, (5,))
        out = F.cross_entropy(scores, target)
        expected = -torch.stack([torch.log_softmax(scores[i], 0)[target[i]] for i in range(5)]).mean()
    """),
    ("hmm-forward-transition-normalised-over-next-state", """
        import torch

        def forward_score(log_emit, trans_logits):
            # log_emit: [T, S], trans_logits: [S, S] (from, to)
            log_a = torch.log_softmax(trans_logits, dim=-1)
            alpha = log_emit[0] - torch.log(torch.tensor(float(log_emit.size(1))))
            for t in range(1, log_emit.size(0)):
                alpha = torch.logsumexp(alpha.unsqueeze(-1) + log_a, dim=-2) + log_emit[t]
            return torch.logsumexp(alpha, dim=-1)

        log_emit, trans_logits = torch.randn(5, 3), torch.randn(3, 3)
        out = forward_score(log_emit, trans_logits)
        a = torch.softmax(trans_logits, -1)
        alpha = log_emit[0].exp() / 3
        for t in range(1, 5):
            alpha = torch.stack([sum(alpha[i] * a[i, j] for i in range(3)) for j in range(3)]) * log_emit[t].exp()
        expected = alpha.sum().log()
    """),
    ("contrastive-columns-normalised-on-purpose", """
        import torch
        import torch.nn.functional as F

        img = F.normalize(torch.randn(6, 8), dim=-1)  # [B, D]
        txt = F.normalize(torch.randn(6, 8), dim=-1)  # [B, D]
        sim = img @ txt.t()  # [B, B]
        labels = torch.arange(6)
        out = F.nll_loss(F.log_softmax(sim, dim=0), labels)
        expected = -torch.stack([torch.log_softmax(sim[:, j], 0)[j] for j in range(6)]).mean()
    """),
    ("object-channels-softmax-read-on-the-same-dim", """
        import torch

        def aggregate(prob):
            # prob: [K, H, W] foreground probability of every object
            logits = torch.log(prob / (1 - prob))
            return logits.softmax(dim=0).argmax(dim=0)

        prob = torch.rand(3, 4, 5).clamp(0.05, 0.95)
        out = aggregate(prob)
        expected = torch.stack([torch.stack([prob[:, i, j].argmax() for j in range(5)]) for i in range(4)])
    """),
    ("class-dim-softmax-then-nll-loss", """
        import torch
        import torch.nn.functional as F

        scores = torch.randn(5, 3)  # [B, C]
        target = torch.randint(0, 3, (5,))
        out = F.nll_loss(F.log_softmax(scores, dim=1), target)
        expected = -torch.stack([torch.log_softmax(scores[i], 0)[target[i]] for i in range(5)]).mean()
    """),
    ("time-major-softmax-over-time-read-over-batch", """
        import torch

        scores = torch.randn(7, 3)  # [T, B]
        attn = scores.softmax(dim=0)
        out = attn.argmax(dim=1)
        expected = torch.stack([torch.softmax(scores, 0)[t].argmax() for t in range(7)])
    """),
]




@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_softmax_read_along_another_dim_is_flagged_at_the_softmax(code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL018", line) in found, found


@pytest.mark.parametrize("code,line", [(c, n) for _, c, n in FLAGGED], ids=[n for n, _, _ in FLAGGED])
def test_torch_runs_the_flagged_code_silently_wrong_and_the_fix_is_right(code, line, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"].float(), scope["expected"].float(), atol=1e-3)
    assert torch.allclose(scope["fixed"].float(), scope["expected"].float(), atol=1e-3)


@pytest.mark.parametrize("code", [c for _, c in SILENT], ids=[n for n, _ in SILENT])
def test_softmax_read_as_intended_is_silent(code):
    assert [f for f in lint(code) if f.code == "GL018"] == []


@pytest.mark.parametrize("code", [c for _, c in SILENT], ids=[n for n, _ in SILENT])
def test_silent_snippets_are_right_in_torch(code, torch):
    torch.manual_seed(0)
    scope = run_snippet(code)
    assert torch.allclose(scope["out"].float(), scope["expected"].float(), atol=1e-4)


def test_message_names_the_normalised_dim_the_reader_and_the_fix():
    code = dict((n, c) for n, c, _ in FLAGGED)["plain-function-comment-shapes"]
    message = next(f.message for f in lint(code) if f.code == "GL018")
    assert "torch.log_softmax(emissions, 0)" in message and "[N, C]" in message
    assert "F.nll_loss(logp, gold" in message and "dim 1 as the classes" in message
    assert "silently wrong" in message and "over dim 1" in message
    batch = next(f.message for f in lint(dict((n, c) for n, c, _ in FLAGGED)["mixture-log-weights-over-batch-jaxtyping"])
                 if f.code == "GL018")
    assert "the batch" in batch and "logsumexp" in batch
