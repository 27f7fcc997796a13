"""A boolean cast to an integer type (`(probs > 0.5).long()`) holds 0 and 1 only: used as an index into a dim
of size 1 (a one-channel segmentation head's class dim), every 1 is out of range. 0 and 1 are no dim's
positions, so a dim of size 2 elsewhere in the input (a batch of two) neither hides the finding nor makes
it a wrong-dim one."""
import textwrap

import pytest

from .conftest import codes, lint
from .snippets import run_program

PIXEL_LOSS = """
import torch
import torch.nn as nn

def pixel_nll(seg_logits, seg_label):
    logp = seg_logits.log_softmax(dim=1)
    return -logp.gather(1, seg_label.unsqueeze(1)).mean()

if __name__ == "__main__":
    head = nn.Conv2d(8, {CHANNELS}, 1)
    images = torch.randn(2, 8, 12, 12)
    masks = (torch.rand(2, 12, 12) > 0.5){CAST}
    loss = pixel_nll(head(images), masks)
"""


@pytest.mark.parametrize("cast", [".long()", ".to(torch.long)", ".to(torch.int64)", ".type(torch.long)"])
def test_binary_labels_into_a_one_channel_head(cast, torch):
    code = PIXEL_LOSS.format(CHANNELS=1, CAST=cast)
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="out of bounds"):
        exec(textwrap.dedent(code), {"__name__": "__main__"})


def test_binary_labels_into_two_classes_are_silent(torch):
    code = PIXEL_LOSS.format(CHANNELS=2, CAST=".long()")
    assert codes(code) == []
    exec(textwrap.dedent(code), {"__name__": "__main__"})


def test_a_mask_mixed_into_labels_no_longer_describes_them_as_zero_and_one():
    # `(1 - m) * labels + m * c`: the repeats still hold, but "0 and 1 (the boolean ...)" would misname the values
    from gather_lint.contract import Domain
    from gather_lint.dims import Shape
    from gather_lint.static.repeated_indices import through_arith
    from gather_lint.static.values import TensorVal

    mask = TensorVal(Shape((8,)), "int64", Domain(2, origin="0 and 1 (the boolean `y == 255`)", repeats=True, binary=True))
    labels = TensorVal(Shape((8,)), "int64", Domain(None, origin="ids/labels (`labels`)", category=True, repeats=True))
    mixed = through_arith(mask, labels, "*", TensorVal(Shape((8,)), "int64"))
    assert mixed.domain.repeats and mixed.domain.origin == "ids/labels (`labels`)" and not mixed.domain.binary


FLAGS = """
import torch

def zero_dropped(prior, flags, table):
    prior = prior.clone()
    prior[{KEY}] = 0.0
    kinds = table[flags]  # a two-row table looked up by 0/1: positions, as meant
    return prior, kinds

if __name__ == "__main__":
    prior = torch.randn(8, 5, 16)
    flags = (torch.arange(8) % 3 == 0).long()
    out, kinds = zero_dropped(prior, flags, torch.randn(2, 4))
    zeroed = (out.abs().sum((1, 2)) == 0).tolist()
    same = zeroed == [bool(f) for f in flags.tolist()]
"""


def test_zero_one_flags_held_as_integers_select_rows_zero_and_one(torch):
    code = FLAGS.format(KEY="flags")
    assert codes(code) == ["GL008"]
    scope = {"__name__": "__main__"}
    exec(textwrap.dedent(code), scope)
    assert scope["same"] is False  # rows 0 and 1 are zeroed, not the flagged rows 0, 3, 6


def test_zero_one_flags_as_a_mask_are_silent(torch):
    code = FLAGS.format(KEY="flags.bool()")
    assert codes(code) == []
    scope = {"__name__": "__main__"}
    exec(textwrap.dedent(code), scope)
    assert scope["same"] is True


# ones written into an integer zeros buffer, one per row, under a condition in a loop: a 0/1 mask kept as int64
KEEP_ROWS = """
import torch

def kept_rows(feats):
    keep = torch.zeros(feats.shape[0], dtype=torch.long)
    for i in range(feats.shape[0]):
        if feats[i].sum() > 0:
            keep[i] = 1
    return feats[keep]

if __name__ == "__main__":
    torch.manual_seed(0)
    feats = torch.randn(6, 3)
    picked = kept_rows(feats)
"""

# segment ids built the same way index a two-row table by their values: positions, as meant
SEGMENT_IDS = """
import torch

def segment_embeddings(table, lengths, width):
    segments = torch.zeros(len(lengths), width, dtype=torch.long)
    for i, first in enumerate(lengths):
        segments[i, first:] = 1
    return table[segments]

if __name__ == "__main__":
    table = torch.randn(2, 4)
    out = segment_embeddings(table, [2, 3], 5)
"""


def test_ones_written_into_zeros_are_a_mask_read_as_positions(torch):
    from .snippets import run_snippet
    scope = run_snippet(KEEP_ROWS)
    assert scope["picked"].shape == (6, 3)  # rows 0 and 1 only, one per flag, not the kept rows
    feats = scope["feats"]
    assert all(scope["torch"].equal(row, feats[0]) or scope["torch"].equal(row, feats[1]) for row in scope["picked"])
    assert codes(KEEP_ROWS) == ["GL008"]


def test_segment_ids_written_the_same_way_stay_positions(torch):
    from .snippets import run_snippet
    assert run_snippet(SEGMENT_IDS)["out"].shape == (2, 5, 4)
    assert codes(SEGMENT_IDS) == []


# two comparisons cast to long and multiplied: still a 0/1 mask, read as positions 0 and 1 by a subscript
KEEP_PRODUCT = """
import torch

def remove_small(boxes, min_size):
    # boxes: [N, 4]
    keep = (boxes[:, 2] - boxes[:, 0] >= min_size).long() * (boxes[:, 3] - boxes[:, 1] >= min_size).long()  # [N]
    return boxes[keep]

if __name__ == "__main__":
    corners = torch.tensor([[0.0, 0.0, 5.0, 5.0], [0.0, 0.0, 1.0, 9.0], [2.0, 2.0, 9.0, 9.0]])
    kept = remove_small(corners, 2.0)
"""


def test_a_product_of_masks_cast_to_long_is_a_mask_read_as_positions(torch):
    from .snippets import run_snippet
    kept = run_snippet(KEEP_PRODUCT)["kept"]
    assert kept.shape == (3, 4)  # one row per flag (rows 1, 0, 1), not the two boxes kept
    assert codes(KEEP_PRODUCT) == ["GL008"]
    fixed = KEEP_PRODUCT.replace("return boxes[keep]", "return boxes[keep.bool()]")
    assert run_snippet(fixed)["kept"].shape == (2, 4)
    assert codes(fixed) == []


@pytest.mark.parametrize("made", [
    "torch.stack([torch.tensor(int(rng.random() < 0.3)) for _ in range(8)])",       # a random.Random's draws
    "torch.stack([torch.tensor(int(random.random() < 0.3)) for _ in range(8)])",    # the module's
    "torch.tensor([int(rng.random() < 0.3) for _ in range(8)])",
])
def test_flags_made_by_int_of_a_comparison_are_zero_and_one(torch, made):
    """`int(draw < p)` is 0 or 1 whatever the draw: flags made so select rows 0 and 1 as an index."""
    code = FLAGS.replace("import torch\n", "import random\nimport torch\n", 1).format(KEY="flags").replace(
        "    flags = (torch.arange(8) % 3 == 0).long()", f"    rng = random.Random(1)\n    random.seed(1)\n    flags = {made}")
    assert codes(code) == ["GL008"]
    scope = {"__name__": "__main__"}
    exec(textwrap.dedent(code), scope)
    assert scope["same"] is False


HELPER_MASK = """
import torch

def modifiable_positions(tokens, stopwords):
    mask = torch.zeros(len(tokens), dtype=torch.long)
    for i, tok in enumerate(tokens):
        if tok.lower() not in stopwords:
            mask[i] = 1
    return mask

def pick(emb, tokens):
    mask = modifiable_positions(tokens, {"the", "of"})
    return emb[{KEY}]

if __name__ == "__main__":
    sentence = "the plot of the movie".split()
    picked = pick(torch.randn(len(sentence), 8), sentence)
"""


def test_a_helpers_zero_one_mask_made_for_written_words_selects_rows_zero_and_one(torch):
    """Words written out are facts a helper runs with: five words give a mask of five 0/1 entries, which as an
    int64 index reads rows 0 and 1 (five rows), not the two words kept."""
    code = HELPER_MASK.replace("{KEY}", "mask")
    assert codes(code) == ["GL008"]
    scope = {"__name__": "__main__"}
    exec(textwrap.dedent(code), scope)
    assert tuple(scope["picked"].shape) == (5, 8)
    fixed = HELPER_MASK.replace("{KEY}", "mask.bool()")
    assert codes(fixed) == []
    scope = {"__name__": "__main__"}
    exec(textwrap.dedent(fixed), scope)
    assert tuple(scope["picked"].shape) == (2, 8)


# `~flags` of 0/1 integers is -1 and -2: as a key, positions from the end, not the flags' complement. The fix
# converts the flags before inverting them, and with every use of the flags fixed the program is right.
INVERTED_FLAGS = """
import torch


def mask_tokens(token_ids, picks, mask_id):
    bs, seq_len = token_ids.size()
    labels = token_ids.new(token_ids.size()).copy_(token_ids)
    pred_mask = torch.zeros(bs * seq_len, dtype=torch.long)
    pred_mask[picks] = 1
    pred_mask = pred_mask.view(bs, seq_len)
    token_ids[pred_mask] = mask_id
    labels[~pred_mask] = -100
    return token_ids, labels


if __name__ == "__main__":
    ids = torch.arange(12).view(3, 4) + 10
    RESULT = mask_tokens(ids.clone(), torch.tensor([1, 6]), 99), ids
"""


def test_inverted_integer_flags_are_positions_from_the_end(torch):
    from gather_lint import fixes

    found = [(f.code, f.line) for f in lint(INVERTED_FLAGS)]
    assert ("GL008", 11) in found and ("GL008", 12) in found, found
    (masked, labels), ids = run_program(INVERTED_FLAGS)
    assert (labels == -100).sum() == 2 * 4  # torch: rows -1 and -2 (every column) set, not the ten unpicked tokens
    fixed, done = fixes.apply(INVERTED_FLAGS, lint(INVERTED_FLAGS), unsafe=True)
    assert "labels[~pred_mask.bool()] = -100" in fixed and lint(fixed) == []
    (masked, labels), ids = run_program(fixed)
    assert (labels == -100).sum() == 10 and (masked == 99).sum() == 2
