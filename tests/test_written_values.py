"""Values the code writes into an integer tensor (GL011): a void label 255, a remap onto `num_classes`,
a 0/1 mask times 255, and what relu and sums of values >= 0 keep of them. Each program runs in torch:
the reported ones raise, the silent ones run."""
import pytest

from .conftest import codes
from .snippets import call_run as run

torch = pytest.importorskip("torch")

ONE_HOT = """
import torch

def one_hot(labels, num_classes):
    out = torch.zeros(labels.shape[0], num_classes)
    return out.scatter_(1, labels.view(-1, 1), 1.0)

def run():
    labels = torch.randint(0, 19, (36,))
    labels[:4] = 255
    labels = PREPARE
    return one_hot(labels, 19)
"""


@pytest.mark.parametrize("prepare", [
    "torch.relu(labels)",  # relu only takes negatives out: 255 stays
    "labels.masked_fill(labels == 255, 19)",  # void remapped onto one past the last class
    "torch.where(labels == 255, 19, labels)",
    "(1 - (labels == 255).long()) * labels + (labels == 255).long() * 19",
])
def test_a_written_value_past_the_classes_is_reported_and_raises(prepare):
    code = ONE_HOT.replace("PREPARE", prepare)
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        run(code)


@pytest.mark.parametrize("prepare", [
    "labels.masked_fill(labels == 255, 0)",
    "torch.where(labels == 255, 0, labels)",
    "(1 - (labels == 255).long()) * labels",
    "labels.clamp(max=18)",
])
def test_void_taken_out_is_silent_and_runs(prepare):
    code = ONE_HOT.replace("PREPARE", prepare)
    assert codes(code) == []
    assert run(code).shape == (36, 19)


def test_a_named_class_count_written_in_is_reported_and_raises():
    code = """
    import torch

    class Estimator:
        def __init__(self, class_num):
            self.class_num = class_num

        def update(self, labels):
            c = self.class_num
            void = (labels == 255).long()
            labels = ((1 - void) * labels + void * c).long()
            onehot = torch.zeros(labels.shape[0], c)
            return onehot.scatter_(1, labels.view(-1, 1), 1)

    def run():
        labels = torch.randint(0, 19, (36,))
        labels[:2] = 255
        estimator = Estimator(19)
        return estimator.update(labels)

    if __name__ == "__main__":
        run()
    """
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        run(code)


def test_a_binary_mask_times_255_is_reported_and_raises():
    code = """
    import torch

    def to_one_hot(mask, n_classes):
        out = torch.zeros(mask.shape[0], n_classes, mask.shape[1])
        return out.scatter_(1, mask.unsqueeze(1), 1.0)

    def run():
        raw = torch.rand(4, 8) > 0.5
        mask = raw.long() * 255
        return to_one_hot(mask, 2)
    """
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        run(code)
    fixed = code.replace("raw.long() * 255", "raw.long()")
    assert codes(fixed) == []
    assert run(fixed).sum().item() == 32


def test_rows_padded_with_the_vocabulary_size_reach_past_the_counts_and_raise():
    # a sampler pads prompts with pad_id = vocab_size "so it never collides with a real token", then counts
    # tokens per row into vocab_size columns
    code = """
    import torch

    def pad_rows(rows, pad_id):
        width = max(len(r) for r in rows)
        return torch.tensor([r + [pad_id] * (width - len(r)) for r in rows], dtype=torch.long)

    def counts(tokens, vocab_size):
        out = torch.zeros((tokens.shape[0], vocab_size), dtype=torch.long)
        return out.scatter_add_(1, tokens, torch.ones_like(tokens))

    def run():
        vocab_size = 50
        return counts(pad_rows([[3, 7, 7], [0, 49]], pad_id=vocab_size), vocab_size)

    if __name__ == "__main__":
        run()
    """
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        run(code)
    fixed = code.replace("pad_id=vocab_size), vocab_size)", "pad_id=vocab_size), vocab_size + 1)")
    assert codes(fixed) == []
    assert run(fixed)[1, 50].item() == 1
