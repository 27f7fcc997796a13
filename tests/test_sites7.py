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

BACKWARD_GRAD.append(("gradient-named-on-its-own-line", """
    import torch

    class Learner:
        def __init__(self, net):
            self.net = net

        def learn(self, obs, target):
            q = self.net(obs).max(1)[0]
            delta = (target - q).clamp(-1, 1)
            grad = -delta.detach().unsqueeze(1)
            q.backward(grad)

    if __name__ == "__main__":
        Learner(torch.nn.Linear(3, 2)).learn(torch.randn(4, 3), torch.randn(4))
""", 12))

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


# GL021 for a top-p filter's keep-first guard written for one row and run on a batch (static/top_p_guards.py).
# `out` is the filtered batch as written, `expected` the same filter applied to each row on its own.
TOP_P_GUARD = [
    ("module-jaxtyping-zero-guard", """
        import torch
        import torch.nn as nn
        from jaxtyping import Float
        from torch import Tensor

        class NucleusFilter(nn.Module):
            def __init__(self, p):
                super().__init__()
                self.p = p

            def forward(self, scores: Float[Tensor, "batch vocab"]) -> Float[Tensor, "batch vocab"]:
                ordered, order = scores.sort(dim=-1, descending=True)
                mass = ordered.softmax(dim=-1).cumsum(dim=-1)
                drop = mass > self.p
                drop[0] = 0
                drop = drop.scatter(-1, order, drop)
                return scores.masked_fill(drop, float("-inf"))

        if __name__ == "__main__":
            torch.manual_seed(0)
            scores = torch.randn(3, 8)
            scores[1, 2] = 9.0
            f = NucleusFilter(0.6)
            out = f(scores)
            expected = torch.cat([f(row[None]) for row in scores])
    """, 16),
    ("function-comment-shift-right", """
        import torch
        import torch.nn.functional as F

        def top_p_filter(logits, top_p=0.9):
            # logits: [B, V]
            sorted_logits, sorted_indices = torch.sort(logits, descending=True)
            cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
            sorted_indices_to_remove = cumulative_probs > top_p
            sorted_indices_to_remove[1:] = sorted_indices_to_remove[:-1].clone()
            sorted_indices_to_remove[..., 0] = False
            indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
            return logits.masked_fill(indices_to_remove, -float("inf"))

        if __name__ == "__main__":
            logits = torch.tensor([[9.0, 0, 0, 0, 0, 0], [0.0, 0, 0, 0, 0, 0], [0.0, 5, 0, 0, 0, 0]])
            out = top_p_filter(logits, 0.5)
            expected = torch.cat([top_p_filter(row[None], 0.5) for row in logits])
    """, 10),
    ("helper-from-driver-ge-false", """
        import torch

        def removal_mask(probs, p):
            sorted_probs, idx = probs.sort(descending=True, dim=1)
            cum = torch.cumsum(sorted_probs, 1)
            remove = cum - sorted_probs >= p
            remove[0] = False
            return remove.gather(1, idx.argsort(1))

        def sample_step(model_out, p):
            probs = model_out.softmax(-1)
            return probs.masked_fill(removal_mask(probs, p), 0.0)

        if __name__ == "__main__":
            torch.manual_seed(2)
            out_logits = torch.randn(3, 7)
            out_logits[0, 0] = 8.0
            out = sample_step(out_logits, 0.5)
            expected = torch.cat([sample_step(row[None], 0.5) for row in out_logits])
    """, 8),
]

TOP_P_CLEAN = [
    ("one-row-filter", """
        import torch

        def top_p_row(logits, p):
            # logits: [V]
            sorted_logits, order = torch.sort(logits, descending=True)
            cum = torch.cumsum(sorted_logits.softmax(-1), dim=-1)
            remove = cum > p
            remove[1:] = remove[:-1].clone()
            remove[0] = False
            return logits.masked_fill(remove.scatter(0, order, remove), float("-inf"))

        if __name__ == "__main__":
            out = top_p_row(torch.randn(9), 0.8)
    """),
    ("batched-filter-last-dim", """
        import torch

        def top_p(logits, p):
            # logits: [B, V]
            sorted_logits, order = torch.sort(logits, descending=True)
            cum = torch.cumsum(sorted_logits.softmax(-1), dim=-1)
            remove = cum > p
            remove[..., 1:] = remove[..., :-1].clone()
            remove[..., 0] = False
            return logits.masked_fill(remove.scatter(1, order, remove), float("-inf"))

        if __name__ == "__main__":
            out = top_p(torch.randn(2, 9), 0.8)
    """),
    ("running-total-over-rows", """
        import torch

        def first_rows(weights):
            # weights: [N, D]
            total = torch.cumsum(weights, dim=0)
            over = total > 1.0
            over[0] = False
            return over.scatter(1, torch.zeros(weights.shape[0], 1, dtype=torch.long), True)

        if __name__ == "__main__":
            out = first_rows(torch.rand(5, 3))
    """),
]


@pytest.mark.parametrize("name,code,line", TOP_P_GUARD, ids=[c[0] for c in TOP_P_GUARD])
def test_top_p_guard_flagged(name, code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL021", line) in found, found


@pytest.mark.parametrize("name,code,line", TOP_P_GUARD, ids=[c[0] for c in TOP_P_GUARD])
def test_torch_filters_rows_differently_than_one_at_a_time(name, code, line, torch):
    scope = run_snippet(code)
    assert not torch.equal(scope["out"], scope["expected"])


@pytest.mark.parametrize("name,code", TOP_P_CLEAN, ids=[c[0] for c in TOP_P_CLEAN])
def test_top_p_guard_clean(name, code, torch):
    assert lint(code) == []
    run_snippet(code)


# GL017 through adjacent int indices (`probs[:, vals, k, i, j]`) and with `[:, 0]` taken from the crossed
# result (static/advanced_indexing.py). `out` is as written, `expected` each row's own pick.
CROSSED_ROWS = [
    ("function-comment-ints-after-index", """
        import torch

        def pixel_probs(probs, colours, channel):
            # probs: [B, C, K]
            # colours: [B] labels
            return probs[:, colours, channel]

        if __name__ == "__main__":
            probs = torch.rand(3, 5, 2)
            labels = torch.tensor([4, 0, 2])
            out = pixel_probs(probs, labels, 1)
            expected = probs[torch.arange(3), labels, 1]
    """, 7),
    ("module-first-column-evidence", """
        import torch
        import torch.nn as nn

        class Scorer(nn.Module):
            def __init__(self, d, n):
                super().__init__()
                self.head = nn.Linear(d, n)

            def forward(self, x, picks):
                \"\"\"x: (batch, d) features; picks: (batch,) one choice per row.\"\"\"
                scores = self.head(x).softmax(-1)
                return scores[:, picks][:, 0]

        if __name__ == "__main__":
            torch.manual_seed(0)
            m = Scorer(4, 6)
            x, picks = torch.randn(3, 4), torch.tensor([5, 1, 3])
            out = m(x, picks)
            expected = m.head(x).softmax(-1).gather(1, picks[:, None])[:, 0]
    """, 13),
    ("jaxtyping-targets-time-step", """
        import torch
        from jaxtyping import Float, Int
        from torch import Tensor

        def step_scores(logits: Float[Tensor, "batch vocab time"], targets: Int[Tensor, "batch"], t: int):
            return logits[:, targets, t].log()

        if __name__ == "__main__":
            logits = torch.rand(4, 7, 3)
            targets = torch.tensor([6, 0, 2, 2])
            out = step_scores(logits, targets, 2)
            expected = logits[torch.arange(4), targets, 2].log()
    """, 7),
]

CROSSED_CLEAN = [
    ("shared-columns-with-int", """
        import torch

        def columns(x, keep):
            # x: [B, C, K]
            # keep: [M]
            return x[:, keep, 0]

        if __name__ == "__main__":
            out = columns(torch.rand(3, 5, 2), torch.tensor([0, 4]))
    """),
    ("first-column-of-a-plain-slice", """
        import torch

        def first(x, cols):
            # x: [B, C]
            # cols: [M]
            return x[:, cols][:, 0]

        if __name__ == "__main__":
            out = first(torch.rand(3, 5), torch.tensor([1, 2]))
    """),
]


@pytest.mark.parametrize("name,code,line", CROSSED_ROWS, ids=[c[0] for c in CROSSED_ROWS])
def test_crossed_rows_flagged(name, code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL017", line) in found, found


@pytest.mark.parametrize("name,code,line", CROSSED_ROWS, ids=[c[0] for c in CROSSED_ROWS])
def test_torch_crosses_rows(name, code, line, torch):
    scope = run_snippet(code)
    out, expected = scope["out"], scope["expected"]
    assert out.shape != expected.shape or not torch.allclose(out, expected)


@pytest.mark.parametrize("name,code", CROSSED_CLEAN, ids=[c[0] for c in CROSSED_CLEAN])
def test_crossed_rows_clean(name, code, torch):
    assert lint(code) == []
    run_snippet(code)


# GL011 at a module's positional table sliced to its input's length past the table (static/table_slices.py).
TABLE_SLICES = [
    ("buffer-pe-size-call", """
        import torch
        import torch.nn as nn

        class SinusoidalPositions(nn.Module):
            def __init__(self, d_model, max_len=16):
                super().__init__()
                self.register_buffer("pe", torch.zeros(1, max_len, d_model))

            def forward(self, x):
                return x + self.pe[:, :x.size(1)]

        if __name__ == "__main__":
            out = SinusoidalPositions(8)(torch.randn(2, 32, 8))
    """, 11),
    ("parameter-unpacked-length", """
        import torch
        import torch.nn as nn

        class LearnedPositions(nn.Module):
            def __init__(self, length, width):
                super().__init__()
                self.table = nn.Parameter(torch.randn(length, width))

            def forward(self, tokens):
                batch, steps, _ = tokens.shape
                return tokens + self.table[:steps]

        if __name__ == "__main__":
            out = LearnedPositions(10, 4)(torch.randn(3, 12, 4))
    """, 12),
    ("jaxtyping-shape-index", """
        import torch
        import torch.nn as nn
        from jaxtyping import Float
        from torch import Tensor

        class TimeBias(nn.Module):
            def __init__(self, horizon: int, channels: int):
                super().__init__()
                self.bias = nn.Parameter(torch.zeros(channels, horizon))

            def forward(self, series: Float[Tensor, "batch channels time"]) -> Float[Tensor, "batch channels time"]:
                return torch.cat([series, self.bias[:, :series.shape[2]].expand(series.shape[0], -1, -1)], dim=1)

        if __name__ == "__main__":
            out = TimeBias(5, 3)(torch.randn(2, 3, 9))
    """, 13),
]

TABLE_CLEAN = [
    ("truncating-the-input", """
        import torch
        import torch.nn as nn

        class Clip(nn.Module):
            def __init__(self, max_len=16):
                super().__init__()
                self.max_len = max_len

            def forward(self, x):
                return x[:, :self.max_len]

        if __name__ == "__main__":
            out = Clip()(torch.randn(2, 32, 8))
    """),
    ("table-long-enough", """
        import torch
        import torch.nn as nn

        class Positions(nn.Module):
            def __init__(self, d_model, max_len=64):
                super().__init__()
                self.register_buffer("pe", torch.zeros(1, max_len, d_model))

            def forward(self, x):
                return x + self.pe[:, :x.size(1)]

        if __name__ == "__main__":
            out = Positions(8)(torch.randn(2, 32, 8))
    """),
]


@pytest.mark.parametrize("name,code,line", TABLE_SLICES, ids=[c[0] for c in TABLE_SLICES])
def test_table_slice_flagged(name, code, line):
    found = [(f.code, f.line) for f in lint(code)]
    assert ("GL011", line) in found, found


@pytest.mark.parametrize("name,code,line", TABLE_SLICES, ids=[c[0] for c in TABLE_SLICES])
def test_torch_raises_on_a_short_table_slice(name, code, line, torch):
    with pytest.raises(RuntimeError, match="must match the size of tensor b|Sizes of tensors must match"):
        run_snippet(code)


@pytest.mark.parametrize("name,code", TABLE_CLEAN, ids=[c[0] for c in TABLE_CLEAN])
def test_table_slice_clean(name, code, torch):
    assert lint(code) == []
    run_snippet(code)
