"""GL011 at a loss's targets: a negative padding value the code put among class targets raises in
cross_entropy / nll_loss unless it is the loss's ignore_index (-100 by default). Each reported snippet
raises 'Target -1 is out of bounds.' in torch; each silent one, which skips or removes the padding, runs."""
import textwrap

import pytest

from .conftest import lint
from .snippets import run_snippet

FLAGGED = [
    ("nights-padded-with-minus-one-across-a-helper", """
        import torch
        import torch.nn.functional as F

        def pad_night(stages, n_epochs):
            pad = n_epochs - stages.shape[0]
            return torch.cat([stages, stages.new_full((pad,), -1)])

        def staging_loss(logits, stages):
            return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), stages.reshape(-1))

        if __name__ == "__main__":
            stages = torch.stack([pad_night(torch.randint(0, 5, (n,)), 8) for n in (8, 6)])
            loss = staging_loss(torch.randn(2, 8, 5), stages)
    """, 10),
    ("labels-filled-with-minus-one-into-nll-loss", """
        import torch
        import torch.nn.functional as F

        log_probs = torch.randn(4, 6).log_softmax(-1)
        labels = torch.full((4,), -1, dtype=torch.long)
        labels[:2] = torch.tensor([3, 5])
        loss = F.nll_loss(log_probs, labels)
    """, 8),
    ("loss-module-held-as-an-attribute", """
        import torch
        import torch.nn as nn

        class Tagger(nn.Module):
            def __init__(self):
                super().__init__()
                self.criterion = nn.CrossEntropyLoss()

            def forward(self, scores, tags):
                return self.criterion(scores, tags)

        if __name__ == "__main__":
            tags = torch.randint(0, 5, (3,))
            padded = torch.cat([tags, tags.new_full((2,), -1)])
            loss = Tagger()(torch.randn(5, 5), padded)
    """, 11),
]

SILENT = [
    ("ignore-index-names-the-padding", """
        import torch
        import torch.nn.functional as F

        tags = torch.randint(0, 5, (3,))
        padded = torch.cat([tags, tags.new_full((2,), -1)])
        loss = F.cross_entropy(torch.randn(5, 5), padded, ignore_index=-1)
    """),
    ("padding-dropped-by-a-mask", """
        import torch
        import torch.nn.functional as F

        tags = torch.randint(0, 5, (3,))
        padded = torch.cat([tags, tags.new_full((2,), -1)])
        keep = padded >= 0
        loss = F.cross_entropy(torch.randn(5, 5)[keep], padded[keep])
    """),
    ("padding-replaced-by-the-default-ignore-index", """
        import torch
        import torch.nn.functional as F

        tags = torch.randint(0, 5, (3,))
        padded = torch.cat([tags, tags.new_full((2,), -1)])
        loss = F.cross_entropy(torch.randn(5, 5), padded.masked_fill(padded == -1, -100))
    """),
    ("padding-rewritten-in-place", """
        import torch
        import torch.nn.functional as F

        tags = torch.randint(0, 5, (3,))
        padded = torch.cat([tags, tags.new_full((2,), -1)])
        padded[padded == -1] = -100
        loss = F.nll_loss(torch.randn(5, 5).log_softmax(-1), padded)
    """),
    ("padding-chosen-away-by-where", """
        import torch
        import torch.nn.functional as F

        tags = torch.randint(0, 5, (3,))
        padded = torch.cat([tags, tags.new_full((2,), -1)])
        loss = F.cross_entropy(torch.randn(5, 5), torch.where(padded < 0, torch.full_like(padded, -100), padded))
    """),
    ("padding-is-the-default-ignore-index", """
        import torch
        import torch.nn.functional as F

        tags = torch.randint(0, 5, (3,))
        padded = torch.cat([tags, tags.new_full((2,), -100)])
        loss = F.cross_entropy(torch.randn(5, 5), padded)
    """),
]


@pytest.mark.parametrize("name,code,line", FLAGGED, ids=[c[0] for c in FLAGGED])
def test_padding_value_among_targets_is_reported(name, code, line):
    found = [(v.line, v.code) for v in lint(textwrap.dedent(code))]
    assert (line, "GL011") in found, found
    with pytest.raises(IndexError, match="Target -1 is out of bounds"):
        run_snippet(code)


@pytest.mark.parametrize("name,code", SILENT, ids=[c[0] for c in SILENT])
def test_padding_the_loss_skips_or_never_sees_stays_silent(name, code):
    assert [v for v in lint(textwrap.dedent(code)) if v.code == "GL011"] == []
    run_snippet(code)
