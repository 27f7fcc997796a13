"""GL008 on subscript keys of the narrow integer dtypes (static/advanced_index_sites.py).

Torch reads a uint8 key as a boolean mask: a 0-d one gives all of the tensor under a new dim (or nothing)
with no error, and one whose size differs from the dims it covers raises; int8 and int16 keys of one dim
or more raise. Each flagged program runs in torch here: the raising ones raise IndexError at the line,
the silent ones compute something other than the per-position loop. Valid forms (a uint8 mask of the
dims' own size, a 0-d int8 key, `.long()` keys) stay silent and run.
"""
import textwrap
import warnings

import pytest

from gather_lint.fixes import apply

from .conftest import lint
from .snippets import run_snippet

# (name, program, line of the finding, "raises" or "silent")
FLAGGED = [
    ("uint8-0d-label-jaxtyping-method", """
        import torch
        from jaxtyping import Float, UInt8
        from torch import Tensor

        class WeightedNLL:
            def __init__(self, weight: Float[Tensor, "classes"]):
                self.weight = weight

            def sample(self, log_probs: Float[Tensor, "classes"], label: UInt8[Tensor, ""]):
                return -(self.weight[label] * log_probs[label]).sum()

        if __name__ == "__main__":
            loss = WeightedNLL(torch.tensor([1.0, 2.0, 3.0]))
            log_probs = torch.log_softmax(torch.tensor([0.1, 0.2, 0.3]), -1)
            out = loss.sample(log_probs, torch.tensor(2, dtype=torch.uint8))
            expected = -(3.0 * log_probs[2])
    """, 11, "silent"),
    ("uint8-0d-byte-conversion-free-function", """
        import torch

        def lookup(table, labels):
            # labels: [N]
            key = labels[0].byte()
            return table[key]

        if __name__ == "__main__":
            table = torch.arange(10.0)
            out = lookup(table, torch.tensor([3, 1]))
            expected = table[3]
    """, 7, "silent"),
    ("uint8-size-mismatch-raises", """
        import torch

        def pick(rows):
            # rows: [N, D]
            ids = torch.tensor([1, 3], dtype=torch.uint8)
            return rows[ids]

        if __name__ == "__main__":
            out = pick(torch.randn(5, 4))
    """, 7, "raises"),
    ("int8-ids-comment-shapes-raises", """
        import torch

        def gather_rows(table, codes):
            # table: [V, D], codes: [K]
            return table[codes.to(torch.int8)]

        if __name__ == "__main__":
            out = gather_rows(torch.randn(6, 2), torch.tensor([0, 5, 2]))
    """, 6, "raises"),
    ("int16-key-write-raises", """
        import torch

        def reset(buffer, slots):
            buffer[slots.short()] = 0.0
            return buffer

        if __name__ == "__main__":
            out = reset(torch.ones(8), torch.tensor([1, 2]))
    """, 5, "raises"),
]

FLAGGED.append(("uint8-permutation-of-the-dims-size", """
        import torch

        def shuffle_tiles(tiles, scores):
            # tiles: [9, C, H, W], scores: [9]
            order = scores.argsort().to(torch.uint8)
            return tiles[order], order

        if __name__ == "__main__":
            tiles = torch.arange(9.0).view(9, 1, 1, 1).expand(9, 1, 2, 2)
            out, order = shuffle_tiles(tiles, torch.randn(9))
            expected = tiles[order.long()]
    """, 7, "silent"))

VALID = [
    ("uint8-mask-of-the-dims-size", """
        import torch

        def keep(x):
            # x: [4, 3]
            mask = torch.tensor([1, 0, 1, 1], dtype=torch.uint8)
            return x[mask]

        if __name__ == "__main__":
            out = keep(torch.randn(4, 3))
    """),
    ("int8-0d-key-is-a-python-int", """
        import torch

        def at(table):
            i = torch.tensor(2, dtype=torch.int8)
            return table[i]

        if __name__ == "__main__":
            out = at(torch.arange(5.0))
    """),
    ("uint8-converted-with-long", """
        import torch
        from jaxtyping import Float, UInt8
        from torch import Tensor

        def sample(weight: Float[Tensor, "classes"], label: UInt8[Tensor, ""]):
            return weight[label.long()]

        if __name__ == "__main__":
            out = sample(torch.tensor([1.0, 2.0]), torch.tensor(1, dtype=torch.uint8))
    """),
    ("uint8-tensor-as-a-value-not-a-key", """
        import torch

        def quantize(x, table):
            codes = (x * 255).to(torch.uint8)
            return table[codes.long()], codes

        if __name__ == "__main__":
            out = quantize(torch.rand(3), torch.arange(256.0))
    """),
]


@pytest.mark.parametrize("name,program,line,kind", FLAGGED, ids=[f[0] for f in FLAGGED])
def test_narrow_key_is_reported_and_torch_agrees(torch, name, program, line, kind):
    found = [f for f in lint(program) if f.code == "GL008"]
    assert [f.line for f in found][:1] == [line], [f"{f.line}: {f.message}" for f in lint(program)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's uint8-index deprecation warning
        if kind == "raises":
            with pytest.raises(IndexError):
                run_snippet(program)
        else:
            scope = run_snippet(program)
            out, expected = scope["out"], scope["expected"]  # a permutation read as a mask keeps 8 of 9 tiles
            assert out.shape != expected.shape or not torch.equal(out, expected)


@pytest.mark.parametrize("name,program", VALID, ids=[v[0] for v in VALID])
def test_valid_keys_stay_silent_and_run(torch, name, program):
    assert [f for f in lint(program) if f.code == "GL008"] == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_snippet(program)


def test_fix_appends_long_and_torch_then_reads_the_position(torch):
    program = FLAGGED[1][1]
    found = [f for f in lint(program) if f.code == "GL008"][0]
    assert found.fix is not None
    fixed, applied = apply(textwrap.dedent(program), [found])
    assert applied == [found]
    assert "table[key.long()]" in fixed, fixed
    scope = run_snippet(fixed)
    assert torch.equal(scope["out"], scope["expected"])
