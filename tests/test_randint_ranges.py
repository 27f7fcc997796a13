"""randint from a positive low: 1-based class labels reach the class count itself. Each claim is run
in torch."""
import textwrap

import pytest

from .conftest import lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope

ONE_BASED = """
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.head = nn.Linear(6, n_classes)

    def forward(self, feats, labels):
        return self.head(feats).log_softmax(-1).gather(1, labels[:, None]).mean()


if __name__ == "__main__":
    n_classes = 5
    labels = torch.randint(1, n_classes + 1, (64,))
    print(Classifier(n_classes)(torch.randn(64, 6), labels))
"""


def test_one_based_labels_gathered_from_as_many_classes(torch):
    assert findings(ONE_BASED) == [(12, "GL011")]
    torch.manual_seed(0)
    labels = torch.randint(1, 6, (64,))
    assert int(labels.max()) == 5
    with pytest.raises(RuntimeError, match="index 5 is out of bounds for dimension 1 with size 5"):
        run(ONE_BASED)["Classifier"](5)(torch.randn(64, 6), labels)


def test_zero_based_labels_stay_silent(torch):
    code = ONE_BASED.replace("torch.randint(1, n_classes + 1, (64,))", "torch.randint(1, n_classes, (64,))")
    assert findings(code) == []
    run(code)["Classifier"](5)(torch.randn(64, 6), torch.randint(1, 5, (64,)))


SHIFTED_DRAWS = """
import torch
import torch.nn as nn


class StepEmbedding(nn.Module):
    def __init__(self, steps, width):
        super().__init__()
        self.steps = steps
        self.table = nn.Embedding(steps, width)

    def forward(self, x):
        t = 1 + torch.randint(self.steps, (x.size(0),))  # 1-based steps
        return x + self.table(t)


if __name__ == "__main__":
    print(StepEmbedding(20, 4)(torch.randn(256, 4)).shape)
"""


def test_draws_shifted_by_one_reach_the_table_size(torch):
    assert findings(SHIFTED_DRAWS) == [(14, "GL011")]
    torch.manual_seed(0)
    assert int((1 + torch.randint(20, (256,))).max()) == 20
    with pytest.raises(IndexError, match="index out of range in self"):
        run(SHIFTED_DRAWS)["StepEmbedding"](20, 4)(torch.randn(256, 4))


def test_draws_shifted_within_the_table_stay_silent(torch):
    code = SHIFTED_DRAWS.replace("1 + torch.randint(self.steps,", "1 + torch.randint(self.steps - 1,")
    assert findings(code) == []
    run(code)["StepEmbedding"](20, 4)(torch.randn(256, 4))


DRAWN_PAIRS = """
import torch


def transition_counts(seqs, num_tags):
    counts = torch.zeros(num_tags, num_tags)
    for seq in seqs:
        counts[seq[:-1], seq[1:]] += 1
    return counts


def corpus(n_tags, lengths):
    seqs = []
    for length in lengths:
        seqs.append(torch.randint(1, n_tags, (length,)))
    return seqs


if __name__ == "__main__":
    torch.manual_seed(0)
    tags = ["PAD", "B", "I", "O"]
    seqs = corpus(len(tags), [12, 9])
    counts = transition_counts(seqs, len(tags))
    RESULT = counts.sum().item(), sum(len(s) - 1 for s in seqs)
"""


def test_draws_repeat_whatever_their_bounds(torch):
    """randint's high here is a count the analysis does not follow (`len(tags)` passed through a helper): its
    draws still repeat, so their bigrams do, and an indexed += counts a repeated pair once."""
    assert [code for _, code in findings(DRAWN_PAIRS)] == ["GL013"]
    scope = {"__name__": "__main__"}
    exec(compile(DRAWN_PAIRS, "<program>", "exec"), scope)  # noqa: S102 - the program under test
    counted, transitions = scope["RESULT"]
    assert counted < transitions  # torch: repeated pairs counted once, silently
    fixed = DRAWN_PAIRS.replace("counts[seq[:-1], seq[1:]] += 1",
                                "counts.index_put_((seq[:-1], seq[1:]), torch.ones(len(seq) - 1), accumulate=True)")
    assert findings(fixed) == []
