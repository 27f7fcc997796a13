"""A float32 the code makes is certain; one an annotation, a layer or a parameter gives may be any float
(static/dtype_certainty.py). GL016 reports float32 against another float only when the float32 is certain.
Each reported snippet raises in torch; each silent one runs, under the half precision that makes the
guess wrong (a module's `.half()`, autocast, a dtype held in a variable)."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

FLAGGED = [
    ("half-teacher-probs-into-buffer-typed-as-student", """
        import torch
        import torch.nn.functional as F

        def dense_teacher(student_logits, top_ids, top_probs):
            lprobs = F.log_softmax(student_logits, dim=-1)
            dense = torch.zeros(lprobs.shape).type_as(lprobs)
            return dense.scatter(2, top_ids, top_probs)

        if __name__ == "__main__":
            probs, ids = torch.randn(2, 3, 10).softmax(-1).topk(4, dim=-1)
            out = dense_teacher(torch.randn(2, 3, 10), ids, probs.half())
    """, 8),
    ("float-cast-source-into-bfloat16-buffer", """
        import torch

        def pool(feats, segment, num_segments):
            out = torch.zeros(num_segments, feats.shape[1], dtype=torch.bfloat16)
            return out.index_add_(0, segment, feats.float())

        if __name__ == "__main__":
            res = pool(torch.randn(5, 3).to(torch.bfloat16), torch.tensor([0, 1, 1, 0, 2]), 3)
    """, 6),
    ("rows-of-a-default-float-draw-scaled-into-half-cache", """
        import torch

        class Cache:
            def __init__(self, slots, dim):
                self.store = torch.zeros(slots, dim, dtype=torch.float16)

            def write(self, positions, values):
                self.store.index_copy_(0, positions, values)

        if __name__ == "__main__":
            cache = Cache(6, 4)
            feats = torch.randn(8, 4)
            picked = feats[torch.tensor([1, 5])] * 0.5
            cache.write(torch.tensor([0, 3]), picked)
    """, 9),
    ("float32-rows-put-into-half-table", """
        import torch

        def refresh(table, rows):
            table[rows] = torch.randn(len(rows), table.shape[1])
            return table

        if __name__ == "__main__":
            res = refresh(torch.zeros(5, 3).half(), torch.tensor([0, 4]))
    """, 5),
]

SILENT = [
    ("parameter-converted-by-module-half", """
        import torch
        import torch.nn as nn

        class MaskFill(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.mask_token = nn.Parameter(torch.zeros(1, dim))

            def forward(self, x, idx):
                # x: [N, D], idx: [K]
                return x.index_copy(0, idx, self.mask_token.expand(idx.shape[0], x.shape[1]))

        if __name__ == "__main__":
            model = MaskFill(8).half()
            out = model(torch.randn(5, 8).half(), torch.tensor([1, 3]))
    """),
    ("layer-output-lowered-by-autocast", """
        import torch
        import torch.nn as nn

        class Decoder(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.proj = nn.Linear(dim, dim)

            def forward(self, x, keep):
                y = self.proj(x.float())
                buf = torch.zeros(x.shape[0], x.shape[1], dtype=torch.bfloat16)
                return buf.index_copy(0, keep, y[keep])

        if __name__ == "__main__":
            with torch.autocast("cpu", dtype=torch.bfloat16):
                out = Decoder(8)(torch.randn(4, 8), torch.tensor([0, 2]))
    """),
    ("matmul-lowered-by-autocast", """
        import torch

        def project_rows(x, w, keep):
            y = x.float() @ w
            buf = torch.zeros(x.shape[0], w.shape[1], dtype=torch.bfloat16)
            return buf.index_copy(0, keep, y[keep])

        if __name__ == "__main__":
            with torch.autocast("cpu", dtype=torch.bfloat16):
                out = project_rows(torch.randn(4, 8), torch.randn(8, 3), torch.tensor([0, 2]))
    """),
    ("registered-buffer-converted-by-module-to", """
        import torch
        import torch.nn as nn

        class Accumulator(nn.Module):
            def __init__(self, slots):
                super().__init__()
                self.register_buffer("totals", torch.zeros(slots))

            def forward(self, values, slot):
                return self.totals.index_add(0, slot, values)

        if __name__ == "__main__":
            model = Accumulator(4).to(torch.bfloat16)
            out = model(torch.rand(6).to(torch.bfloat16), torch.tensor([0, 1, 1, 3, 2, 0]))
    """),
    ("dtype-held-in-a-variable", """
        import torch

        def pool(feats, segment, num_segments, dtype):
            out = torch.zeros(num_segments, feats.shape[1], dtype=dtype)
            return out.index_add_(0, segment, feats.to(dtype))

        if __name__ == "__main__":
            res = pool(torch.randn(5, 3), torch.tensor([0, 1, 1, 0, 2]), 3, torch.float16)
    """),
    ("sum-with-a-tensor-of-unknown-dtype", """
        import torch

        def scatter_scores(scores, bias, ids, width):
            out = torch.zeros(scores.shape[0], width, dtype=torch.float64)
            return out.scatter(1, ids, torch.rand(scores.shape) + bias)

        if __name__ == "__main__":
            scores = torch.rand(2, 3)
            res = scatter_scores(scores, torch.zeros(2, 3, dtype=torch.float64), torch.tensor([[0, 1, 2], [2, 1, 0]]), 4)
    """),
]


@pytest.mark.parametrize("name,code,line", FLAGGED, ids=[c[0] for c in FLAGGED])
def test_certain_float32_against_another_float_is_reported(name, code, line):
    found = [(v.line, v.code) for v in lint(textwrap.dedent(code))]
    assert (line, "GL016") in found, found
    with pytest.raises(RuntimeError, match="dtype|scalar type"):
        run_snippet(code)


@pytest.mark.parametrize("name,code", SILENT, ids=[c[0] for c in SILENT])
def test_float32_that_may_be_another_float_stays_silent(name, code):
    assert [v for v in lint(textwrap.dedent(code)) if v.code == "GL016"] == []
    run_snippet(code)
