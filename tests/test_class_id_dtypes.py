"""GL008 on class ids: F.one_hot takes int64 only, and the class-index targets of F.cross_entropy /
F.nll_loss take int64, or uint8 for an input of at most 2 dims (static/class_targets.py).

Each flagged program raises torch's RuntimeError when run here; each valid one runs (a float target of
the input's shape is a probability target of cross_entropy; a guarded or typed list is never float).
"""
import pytest

from .conftest import codes, lint
from .snippets import call_run as run
from .snippets import run_snippet

# (name, program, line of the finding)
FLAGGED = [
    ("one-hot-of-int-cast", """
        import torch
        import torch.nn.functional as F

        def encode(scores, num_classes):
            ids = (scores * num_classes).int()
            return F.one_hot(ids, num_classes)

        if __name__ == "__main__":
            out = encode(torch.rand(5), 4)
    """, 7),
    ("one-hot-of-filtered-list-empty", """
        import torch
        import torch.nn.functional as F

        def multi_hot(labels, num_classes):
            ids = torch.tensor([label for label in labels if label >= 0])
            return F.one_hot(ids, num_classes).sum(0)

        if __name__ == "__main__":
            out = multi_hot([-1, -1], 4)
    """, 7),
    ("nll-loss-int32-target", """
        import torch
        import torch.nn.functional as F

        def loss_fn(log_probs, target):
            return F.nll_loss(log_probs, target.int())

        if __name__ == "__main__":
            out = loss_fn(torch.randn(3, 4).log_softmax(-1), torch.tensor([0, 3, 1]))
    """, 6),
    ("cross-entropy-float-class-ids", """
        import torch
        import torch.nn.functional as F

        def step(logits, labels):
            # logits: [N, C], labels: [N]
            target = labels.float()
            return F.cross_entropy(logits, target)

        if __name__ == "__main__":
            out = step(torch.randn(3, 4), torch.tensor([0, 3, 1]))
    """, 8),
    ("uint8-segmentation-mask-targets", """
        import torch
        import torch.nn.functional as F

        def seg_loss(logits, mask):
            # logits: [B, C, H, W]
            return F.cross_entropy(logits, mask.byte())

        if __name__ == "__main__":
            out = seg_loss(torch.randn(2, 3, 4, 4), torch.randint(0, 3, (2, 4, 4)))
    """, 7),
    ("one-hot-of-uint8-mask-labels", """
        import torch
        import torch.nn.functional as F

        def to_channels(mask, num_classes):
            # mask: [H, W]
            return F.one_hot(mask.byte(), num_classes).permute(2, 0, 1)

        if __name__ == "__main__":
            out = to_channels(torch.randint(0, 3, (4, 4)), 3)
    """, 7),
]

VALID = [
    ("cross-entropy-probability-targets", """
        import torch
        import torch.nn.functional as F

        def soft_loss(logits, teacher):
            # logits: [N, C], teacher: [N, C]
            return F.cross_entropy(logits, teacher.float().softmax(-1))

        if __name__ == "__main__":
            out = soft_loss(torch.randn(3, 4), torch.randn(3, 4))
    """),
    ("uint8-targets-of-a-2d-loss", """
        import torch
        import torch.nn.functional as F

        def loss_fn(logits, labels):
            # logits: [N, C]
            return F.cross_entropy(logits, labels.byte())

        if __name__ == "__main__":
            out = loss_fn(torch.randn(5, 3), torch.randint(0, 3, (5,)))
    """),
    ("one-hot-of-long-cast", """
        import torch
        import torch.nn.functional as F

        def encode(scores, num_classes):
            ids = (scores * num_classes).long()
            return F.one_hot(ids, num_classes)

        if __name__ == "__main__":
            out = encode(torch.rand(5), 4)
    """),
    ("one-hot-of-typed-filtered-list", """
        import torch
        import torch.nn.functional as F

        def multi_hot(labels, num_classes):
            ids = torch.tensor([label for label in labels if label >= 0], dtype=torch.long)
            return F.one_hot(ids, num_classes).sum(0)

        if __name__ == "__main__":
            out = multi_hot([-1, -1], 4)
    """),
    ("one-hot-of-guarded-filtered-list", """
        import torch
        import torch.nn.functional as F

        def multi_hot(labels, num_classes):
            kept = [label for label in labels if label >= 0]
            if not kept:
                return torch.zeros(num_classes, dtype=torch.long)
            return F.one_hot(torch.tensor(kept), num_classes).sum(0)

        if __name__ == "__main__":
            out = multi_hot([-1, 2], 4)
    """),
]


@pytest.mark.parametrize("name,program,line", FLAGGED, ids=[f[0] for f in FLAGGED])
def test_refused_class_ids_are_reported_and_torch_raises(torch, name, program, line):
    found = [f for f in lint(program) if f.code == "GL008"]
    assert [f.line for f in found] == [line], [f"{f.line}: {f.message}" for f in lint(program)]
    with pytest.raises(RuntimeError, match="LongTensor|Long or Byte|expected scalar type Long"):
        run_snippet(program)


@pytest.mark.parametrize("name,program", VALID, ids=[v[0] for v in VALID])
def test_accepted_class_ids_stay_silent_and_run(torch, name, program):
    assert [f for f in lint(program) if f.code == "GL008"] == []
    run_snippet(program)


LIBRARY_INLINE = """
    import torch.nn.functional as F

    class Classifier:
        def loss(self, logits, labels):
            # logits: [N, C]
            return F.cross_entropy(logits, labels.int())
"""


def test_a_library_cast_on_the_loss_line_is_reported(torch):
    # no driver: a library's class-id ops are read where the cast is on the call's own line
    assert [f.line for f in lint(LIBRARY_INLINE) if f.code == "GL008"] == [7]
    with pytest.raises(RuntimeError, match="Long or Byte"):
        torch.nn.functional.cross_entropy(torch.randn(3, 4), torch.tensor([0, 3, 1]).int())

FROM_A_CALLER = """
import torch
import torch.nn.functional as F


def smoothed(logits, grades, num_grades):
    \"\"\"
    Args:
        logits: (batch, num_grades)
        grades: (batch,)
    \"\"\"
    target = F.one_hot(grades, num_grades).float() * 0.9 + 0.01
    return -(target * logits.log_softmax(-1)).sum(-1).mean()


def run():
    table = torch.rand(8, 5)
    table[:, -1] = torch.randint(0, 4, (8,)).float()
    grades = table[:, -1]
    return smoothed(torch.randn(8, 4), grades, 4)


if __name__ == "__main__":
    print(run())
"""


def test_float_class_ids_the_callers_code_makes_raise_in_one_hot(torch):
    assert codes(FROM_A_CALLER) == ["GL008"]
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor of type LongTensor"):
        run(FROM_A_CALLER)
    fixed = FROM_A_CALLER.replace("grades = table[:, -1]", "grades = table[:, -1].long()")
    assert codes(fixed) == []
    assert run(fixed).ndim == 0


ANNOTATED = """
import torch
import torch.nn.functional as F
from jaxtyping import Float


def targets(labels: Float[torch.Tensor, "batch"], classes: int):
    return F.one_hot(labels, classes)


def run():
    return targets(torch.tensor([0, 2, 1]), 3)


if __name__ == "__main__":
    print(run())
"""


def test_float_only_in_an_annotation_is_a_contradiction_warning(torch):
    found = lint(ANNOTATED)
    assert [(f.code, f.severity) for f in found] == [("GL008", "warning")]
    assert "annotated" in found[0].message and "contradicts the use" in found[0].message
    assert run(ANNOTATED).tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]  # the code is right: long ids work


def test_a_probability_target_made_by_the_code_stays_silent(torch):
    program = """
import torch
import torch.nn.functional as F


def run():
    logits = torch.randn(4, 3)
    soft = torch.rand(4, 3).softmax(-1)
    return F.cross_entropy(logits, soft)
"""
    assert codes(program) == []
    assert run(program).ndim == 0
