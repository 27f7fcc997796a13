"""New sites: calls the static analysis did not look at before.

* GL002 at a softmax / log_softmax / gumbel_softmax given a size where a dim was meant
  (static/size_as_dim.py): `dim = logits.size(-1)`, `dim=self.n_experts`, `x.shape[-1]`.

Every flagged snippet runs in torch and must raise what the message says; clean ones run and give
no finding.
"""
import pytest

from .conftest import lint
from .snippets import run_snippet

SIZE_AS_DIM = [
    ("module-n-experts-attribute-constructor", """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Router(nn.Module):
            def __init__(self, d_model, n_experts):
                super().__init__()
                self.n_experts = n_experts
                self.proj = nn.Linear(d_model, n_experts)

            def forward(self, tokens):
                logits = self.proj(tokens)
                return F.softmax(logits, dim=self.n_experts)

        if __name__ == "__main__":
            router = Router(8, 4)
            gates = router(torch.randn(5, 8))
    """, 14),
    ("function-shape-read-inline-jaxtyping", """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def class_log_probs(scores: Float[Tensor, "batch classes"]) -> Float[Tensor, "batch classes"]:
            return torch.log_softmax(scores, scores.shape[-1])

        if __name__ == "__main__":
            out = class_log_probs(torch.randn(3, 6))
    """, 7),
    ("helper-method-form-docstring", """
        import torch

        def normalise_votes(votes):
            \"\"\"Turn vote counts into proportions.

            Args:
                votes: (num_voters, num_options) scores.
            \"\"\"
            options = votes.size(1)
            return votes.softmax(options)

        def tally(all_votes):
            return normalise_votes(all_votes).argmax(-1)

        if __name__ == "__main__":
            out = tally(torch.randn(4, 3))
    """, 11),
    ("gumbel-keyword-from-comment", """
        import torch
        import torch.nn.functional as F

        def sample_choice(logits, tau=0.5):
            # logits: [B, K]
            k = logits.shape[1]
            return F.gumbel_softmax(logits, tau=tau, hard=True, dim=k)

        if __name__ == "__main__":
            out = sample_choice(torch.randn(2, 5))
    """, 8),
]

CLEAN = [
    ("axis-parameter", """
        import torch
        import torch.nn.functional as F

        def normalise(x, dim=-1):
            # x: [B, K]
            return F.softmax(x, dim=dim)

        if __name__ == "__main__":
            out = normalise(torch.randn(2, 5), 1)
    """),
    ("last-dim-from-rank", """
        import torch

        def weights(scores):
            # scores: [N, C]
            last = scores.dim() - 1
            return torch.softmax(scores, last)

        if __name__ == "__main__":
            out = weights(torch.randn(4, 3))
    """),
    ("size-of-another-tensor-used-as-count", """
        import torch
        import torch.nn.functional as F

        def pick(logits, k):
            num_classes = logits.size(-1)
            probs = F.softmax(logits, dim=-1)
            return probs.topk(min(k, num_classes), dim=-1)

        if __name__ == "__main__":
            out = pick(torch.randn(2, 5), 3)
    """),
    ("unknown-rank", """
        import torch

        def normalise(x, n_classes):
            return torch.softmax(x, n_classes)
    """),
]


@pytest.mark.parametrize("name,code,line", SIZE_AS_DIM, ids=[c[0] for c in SIZE_AS_DIM])
def test_size_as_dim_flagged(name, code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL002", line) in found, found


@pytest.mark.parametrize("name,code,line", SIZE_AS_DIM, ids=[c[0] for c in SIZE_AS_DIM])
def test_size_as_dim_message_names_size_and_fix(name, code, line):
    finding = next(f for f in lint(code) if f.code == "GL002")
    assert "the size of dim" in finding.message and "Dimension out of range" in finding.message
    assert "dim=-1" in finding.message


@pytest.mark.parametrize("name,code,line", SIZE_AS_DIM, ids=[c[0] for c in SIZE_AS_DIM])
def test_torch_raises_on_size_as_dim(name, code, line, torch):
    with pytest.raises(IndexError, match="Dimension out of range"):
        run_snippet(code)


@pytest.mark.parametrize("name,code", CLEAN, ids=[c[0] for c in CLEAN])
def test_size_as_dim_clean(name, code, torch):
    assert lint(code) == []
    run_snippet(code)


# GL001 at a backward given a gradient made from its own output with a dim added (static/backward_grads.py)
BACKWARD_GRAD = [
    ("module-method-backward-unsqueeze", """
        import torch
        import torch.nn as nn

        class Critic(nn.Module):
            def __init__(self):
                super().__init__()
                self.v = nn.Linear(3, 1)

            def update(self, states, returns):
                values = self.v(states).squeeze(-1)
                td = returns - values
                values.backward(-td.detach().clamp(-1, 1).unsqueeze(-1))

        if __name__ == "__main__":
            Critic().update(torch.randn(4, 3), torch.randn(4))
    """, 13),
    ("function-autograd-backward-none-axis", """
        import torch

        def step(net, x, y):
            pred = net(x).sum(1)
            residual = pred - y
            torch.autograd.backward(pred, residual.detach()[:, None])

        if __name__ == "__main__":
            step(torch.nn.Linear(2, 3), torch.randn(5, 2), torch.randn(5))
    """, 7),
    ("helper-autograd-grad-outputs", """
        import torch

        def input_gradient(model, inputs, weights):
            scores = model(inputs).mean(-1)
            scaled = weights * scores
            grads, = torch.autograd.grad(scores, inputs, grad_outputs=scaled.detach().unsqueeze(1))
            return grads

        def saliency(model, batch):
            batch.requires_grad_(True)
            return input_gradient(model, batch, torch.ones(batch.shape[0]))

        if __name__ == "__main__":
            saliency(torch.nn.Linear(2, 3), torch.randn(6, 2))
    """, 7),
]

BACKWARD_CLEAN = [
    ("same-shape-gradient", """
        import torch

        def step(net, x, y):
            pred = net(x).sum(1)
            error = (y - pred).clamp(-1, 1)
            pred.backward(-error.detach())

        if __name__ == "__main__":
            step(torch.nn.Linear(2, 3), torch.randn(5, 2), torch.randn(5))
    """),
    ("output-rebound-before-backward", """
        import torch

        def step(net, x, y):
            pred = net(x).sum(1)
            error = (y - pred).unsqueeze(1)
            pred = pred.unsqueeze(1)
            pred.backward(error.detach())

        if __name__ == "__main__":
            step(torch.nn.Linear(2, 3), torch.randn(5, 2), torch.randn(5))
    """),
    ("reduced-gradient-source", """
        import torch

        def step(net, x):
            out = net(x)
            g = out.sum(1).unsqueeze(1)
            out.backward(g.expand_as(out).detach())

        if __name__ == "__main__":
            step(torch.nn.Linear(2, 3), torch.randn(5, 2))
    """),
]


@pytest.mark.parametrize("name,code,line", BACKWARD_GRAD, ids=[c[0] for c in BACKWARD_GRAD])
def test_backward_grad_flagged(name, code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL001", line) in found, found


@pytest.mark.parametrize("name,code,line", BACKWARD_GRAD, ids=[c[0] for c in BACKWARD_GRAD])
def test_torch_raises_on_backward_grad(name, code, line, torch):
    with pytest.raises(RuntimeError, match="Mismatch in shape: grad_output\\[0\\] has a shape of"):
        run_snippet(code)


@pytest.mark.parametrize("name,code", BACKWARD_CLEAN, ids=[c[0] for c in BACKWARD_CLEAN])
def test_backward_grad_clean(name, code, torch):
    assert lint(code) == []
    run_snippet(code)


# GL013 with a literal index naming one value twice (repeated_indices.literal_repeats): torch applies the
# repeated position once. Each snippet binds `out` (as written) and `expected` (one update per entry).
LITERAL_REPEATS = [
    ("function-augmented-from-driver", """
        import torch

        def add_votes(tally, candidates, weights):
            tally[candidates] += weights
            return tally

        if __name__ == "__main__":
            picks = torch.tensor([2, 0, 2])
            w = torch.tensor([1.0, 2.0, 3.0])
            out = add_votes(torch.zeros(4), picks, w)
            expected = torch.zeros(4).index_add_(0, picks, w)
    """, 5),
    ("module-method-named-keys", """
        import torch

        class Memory:
            def __init__(self, slots, width):
                self.cells = torch.zeros(slots, width)

            def write(self, slots, updates):
                self.cells[slots] += updates
                return self.cells

        if __name__ == "__main__":
            ids = {"a": 0, "b": 3}
            slots = torch.tensor([ids["a"], ids["b"], ids["a"]])
            updates = torch.ones(3, 2)
            out = Memory(4, 2).write(slots, updates).clone()
            expected = torch.zeros(4, 2).index_add_(0, slots, updates)
    """, 9),
    ("scatter-into-zeros-long-tensor", """
        import torch

        def pool(values, owner, n):
            totals = torch.zeros(n)
            return totals.scatter_(0, owner, values)

        if __name__ == "__main__":
            owner = torch.LongTensor([1, 1, 0])
            values = torch.tensor([1.0, 2.0, 3.0])
            out = pool(values, owner, 2)
            expected = torch.zeros(2).index_add_(0, owner, values)
    """, 6),
]

LITERAL_CLEAN = [
    ("distinct-literal", """
        import torch

        def add_votes(tally, candidates, weights):
            tally[candidates] += weights
            return tally

        if __name__ == "__main__":
            out = add_votes(torch.zeros(4), torch.tensor([2, 0, 1]), torch.ones(3))
    """),
    ("repeated-literal-accumulated", """
        import torch

        def add_votes(tally, candidates, weights):
            return tally.index_add_(0, candidates, weights)

        if __name__ == "__main__":
            out = add_votes(torch.zeros(4), torch.tensor([2, 0, 2]), torch.ones(3))
    """),
    ("repeated-literal-read-only", """
        import torch

        def pick(table, rows):
            return table[rows] * 2

        if __name__ == "__main__":
            out = pick(torch.randn(4, 3), torch.tensor([1, 1, 2]))
    """),
]


@pytest.mark.parametrize("name,code,line", LITERAL_REPEATS, ids=[c[0] for c in LITERAL_REPEATS])
def test_literal_repeats_flagged(name, code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL013", line) in found, found


@pytest.mark.parametrize("name,code,line", LITERAL_REPEATS, ids=[c[0] for c in LITERAL_REPEATS])
def test_torch_applies_a_repeated_literal_position_once(name, code, line, torch):
    scope = run_snippet(code)
    assert not torch.allclose(scope["out"], scope["expected"])


@pytest.mark.parametrize("name,code", LITERAL_CLEAN, ids=[c[0] for c in LITERAL_CLEAN])
def test_literal_repeats_clean(name, code, torch):
    assert lint(code) == []
    run_snippet(code)
