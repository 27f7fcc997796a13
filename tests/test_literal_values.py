"""Ids written out in the code, of any rank, hold their largest value: `table[ids]` with one of them past the
table raises. The values are known through names, Python lists joined with `+`, a helper or a method that
returns a list, and a class attribute can size the table."""
import pytest

from .conftest import codes
from .snippets import call_run as run

def _raises_and_is_reported_or_neither(program, found, error, shape):
    """The program raises `error` in torch and the linter reports `found`, or it runs to `shape` and is silent."""
    if found:
        with pytest.raises(RuntimeError, match=error):
            run(program)
    else:
        assert run(program).shape == shape
    assert codes(program) == found


SPECIAL_IDS_PAST_THE_TABLE = """
import torch

class ChatTokenizer:
    vocab_size = 50  # the base pieces; the chat tokens come after them

    def encode_chat(self, ids):
        return [50, 52] + ids + [51]

class TagLookup:
    def __init__(self, tokenizer):
        self.tag_of = torch.zeros(tokenizer.vocab_size, dtype=torch.long)  # [vocab]

    def __call__(self, input_ids):
        return self.tag_of[input_ids]

def run():
    tok = ChatTokenizer()
    lookup = TagLookup(tok)
    batch = torch.tensor([tok.encode_chat([3, 17, 8]), tok.encode_chat([9, 9, 12])])
    return lookup(batch)

if __name__ == "__main__":
    run()
"""

# the same program with the table sized for every id the tokenizer makes
SIZED_FOR_THE_CHAT_TOKENS = SPECIAL_IDS_PAST_THE_TABLE.replace(
    "torch.zeros(tokenizer.vocab_size,", "torch.zeros(tokenizer.vocab_size + 3,")


def test_ids_past_the_table_raise_in_torch_and_are_reported(torch):
    with pytest.raises(IndexError, match="out of bounds"):
        run(SPECIAL_IDS_PAST_THE_TABLE)
    assert "GL011" in codes(SPECIAL_IDS_PAST_THE_TABLE)


def test_a_table_with_room_for_them_is_silent(torch):
    assert run(SIZED_FOR_THE_CHAT_TOKENS).shape == (2, 6)
    assert codes(SIZED_FOR_THE_CHAT_TOKENS) == []


@pytest.mark.parametrize("ids", [
    "torch.tensor([[50, 52, 3, 51]])",  # written out, two dims
    "torch.tensor([50, 52] + [3, 17] + [51])",  # a Python list joined
    "torch.tensor(special + [3, 17])",  # through a name
])
def test_written_ids_in_a_function(torch, ids):
    program = f"""
import torch

def run():
    special = [50, 52]
    table = torch.randn(50, 4)
    ids = {ids}
    return table[ids]

if __name__ == "__main__":
    run()
"""
    with pytest.raises(IndexError):
        run(program)
    assert "GL011" in codes(program)
    fitting = program.replace("torch.randn(50, 4)", "torch.randn(53, 4)")
    assert run(fitting).shape[-1] == 4
    assert codes(fitting) == []


def test_a_slice_of_written_ids_may_leave_the_largest_out(torch):
    program = """
import torch

def run():
    table = torch.randn(50, 4)
    ids = torch.tensor([3, 17, 8, 52])
    return table[ids[:3]]

if __name__ == "__main__":
    run()
"""
    assert run(program).shape == (3, 4)
    assert codes(program) == []


def test_a_class_attribute_rebound_by_a_method_is_not_a_size(torch):
    program = """
import torch

class Vocab:
    size = 50

    def grow(self, n):
        self.size = self.size + n

def run():
    vocab = Vocab()
    vocab.grow(3)
    table = torch.randn(vocab.size, 4)
    return table[torch.tensor([50, 52])]

if __name__ == "__main__":
    run()
"""
    assert run(program).shape == (2, 4)
    assert codes(program) == []


# a prompt with image placeholders, built in Python, merged with features of the vision tower
PLACEHOLDERS = """
import torch
from torch import nn

IMAGE_ID = 9

def prompt(n_images, text_ids, per_image=4):
    return [IMAGE_ID] * (per_image * n_images) + text_ids

class Merger(nn.Module):
    def __init__(self, vocab=10, width=8, patch=6):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.vision = nn.Linear(patch, width)

    def forward(self, input_ids, patches):
        embeds = self.embed(input_ids)
        feats = self.vision(patches)
        mask = input_ids == IMAGE_ID
        embeds[mask] = feats
        return embeds

def run():
    model = Merger()
    ids = torch.tensor([prompt(N_IMAGES, [1, 2, 3])])
    with torch.no_grad():
        return model(ids, torch.randn(4, 6))

if __name__ == "__main__":
    run()
"""


def test_more_placeholders_than_feature_rows_raise_and_are_reported(torch):
    two = PLACEHOLDERS.replace("N_IMAGES", "2")  # 8 placeholders, 4 feature rows
    with pytest.raises(RuntimeError, match="shape mismatch"):
        run(two)
    assert codes(two) == ["GL003"]


def test_as_many_placeholders_as_feature_rows_are_silent(torch):
    one = PLACEHOLDERS.replace("N_IMAGES", "1")
    assert run(one).shape == (1, 7, 8)
    assert codes(one) == []


def test_a_mask_changed_after_it_is_made_is_not_counted(torch):
    # placeholders after the prompt's first 4 positions are text the sampler emitted: they carry no image
    cut = PLACEHOLDERS.replace("N_IMAGES", "2").replace(
        "        embeds[mask] = feats", "        mask[:, 4:] = False\n        embeds[mask] = feats")
    assert run(cut).shape == (1, 11, 8)
    assert codes(cut) == []


SCATTERED = PLACEHOLDERS.replace(
    "        mask = input_ids == IMAGE_ID\n        embeds[mask] = feats",
    "        mask = (input_ids == IMAGE_ID).unsqueeze(-1).expand_as(embeds)\n"
    "        return embeds.masked_scatter(mask, feats)")


def test_masked_scatter_short_of_values_raises_and_is_reported(torch):
    two = SCATTERED.replace("N_IMAGES", "2")
    with pytest.raises(RuntimeError, match="Number of elements of source"):
        run(two)
    found = codes(two)
    assert found == ["GL003"]


def test_masked_scatter_with_enough_values_is_silent(torch):
    one = SCATTERED.replace("N_IMAGES", "1")
    assert run(one).shape == (1, 7, 8)
    assert codes(one) == []


def test_masked_scatter_of_rows_of_another_width_is_reported(torch):
    # features of width 6 (no projection) into rows of width 8: the rows straddle feature rows, silently
    narrow = SCATTERED.replace("N_IMAGES", "1").replace("feats = self.vision(patches)",
                                                       "feats = torch.cat([patches, patches[:2]])"
                                                       ).replace("torch.randn(4, 6)", "torch.arange(24.0).view(4, 6)")
    out = run(narrow)
    assert out.shape == (1, 7, 8)
    # the first placeholder row took 8 values: all 6 of patch 0 and the first 2 of patch 1
    assert torch.equal(out[0, 0], torch.arange(8.0))
    assert codes(narrow) == ["GL003"]


# the prompt built round by round: a counted loop runs each round in turn, so the list is known entry by entry
LOOPED_PROMPT = PLACEHOLDERS.replace(
    """def prompt(n_images, text_ids, per_image=4):
    return [IMAGE_ID] * (per_image * n_images) + text_ids""",
    """def prompt(n_images, text_ids, per_image=4):
    ids = []
    for _ in range(n_images):
        ids += [IMAGE_ID] * per_image
    return ids + text_ids""")


@pytest.mark.parametrize("images, found", [("2", ["GL003"]), ("1", [])])
def test_a_prompt_built_in_a_counted_loop(torch, images, found):
    program = LOOPED_PROMPT.replace("N_IMAGES", images)
    _raises_and_is_reported_or_neither(program, found, "shape mismatch", (1, 7, 8))


# a placeholder count computed from the image size, filled with torch.full, located with nonzero()
NONZERO_POSITIONS = """
import math
import torch
import torch.nn as nn

PATCH, MERGE, HIDDEN, IMAGE_TOKEN = 14, 2, 8, 7

def num_image_tokens(height, width):
    return math.ceil(height / (PATCH * MERGE)) * math.ceil(width / (PATCH * MERGE))

def merge(inputs_embeds, input_ids, image_embeds):
    positions = (input_ids == IMAGE_TOKEN).nonzero()
    index = positions.expand(-1, inputs_embeds.shape[-1])
    return inputs_embeds.scatter(0, index, image_embeds)

def run():
    height, width = HEIGHT, 196
    n_img = num_image_tokens(height, width)
    input_ids = torch.cat([torch.tensor([1, 5, 9]), torch.full((n_img,), IMAGE_TOKEN), torch.tensor([11, 2])])
    tower = nn.Conv2d(3, HIDDEN, kernel_size=PATCH * MERGE, stride=PATCH * MERGE)
    with torch.no_grad():
        image_embeds = tower(torch.randn(1, 3, height, width)).flatten(2)[0].T
        return merge(torch.zeros(len(input_ids), HIDDEN), input_ids, image_embeds)

if __name__ == "__main__":
    run()
"""


def test_a_ceiled_placeholder_count_against_a_floored_patch_grid(torch):
    uneven = NONZERO_POSITIONS.replace("HEIGHT", "300")  # ceil(300 / 28) = 11 rows of placeholders, 10 of patches
    with pytest.raises(RuntimeError, match="no larger"):
        run(uneven)
    assert codes(uneven) == ["GL003"]


def test_a_height_the_patches_divide_is_silent(torch):
    even = NONZERO_POSITIONS.replace("HEIGHT", "280")
    assert run(even).shape == (3 + 70 + 2, 8)  # 10 x 7 patches, 10 x 7 placeholders
    assert codes(even) == []


@pytest.mark.parametrize("images, found", [("2", ["GL003"]), ("1", [])])
def test_a_prompt_annotated_as_a_list_of_ints_keeps_the_callers_values(torch, images, found):
    # `text_ids: list[int]` says less than the list the caller passes: the call's list is the fact
    program = LOOPED_PROMPT.replace("def prompt(n_images, text_ids, per_image=4):",
                                    "def prompt(n_images: int, text_ids: list[int], per_image: int = 4) -> list[int]:"
                                    ).replace("N_IMAGES", images)
    _raises_and_is_reported_or_neither(program, found, "shape mismatch", (1, 7, 8))


@pytest.mark.parametrize("stored, found", [("[5, 3, 1, 4, 5, 2]", ["GL011"]), ("[4, 2, 0, 3, 4, 1]", [])])
def test_a_slice_of_written_ratings_keeps_what_it_covers(torch, stored, found):
    # ratings stored 1..5 (a value written twice), sliced to the batch: the slice holds the 5
    program = f"""
import torch
import torch.nn.functional as F

def run(n=6):
    stars = torch.tensor({stored})[:n]
    return F.one_hot(stars, num_classes=5)

if __name__ == "__main__":
    run()
"""
    _raises_and_is_reported_or_neither(program, found, "Class values must be smaller than num_classes", (6, 5))


APPENDED_PROMPT = PLACEHOLDERS.replace(
    """def prompt(n_images, text_ids, per_image=4):
    return [IMAGE_ID] * (per_image * n_images) + text_ids""",
    """def prompt(n_images, text_ids, per_image=4):
    ids = []
    for _ in range(n_images * per_image):
        ids.append(IMAGE_ID)
    return ids + text_ids""")


@pytest.mark.parametrize("images, found", [("2", ["GL003"]), ("1", [])])
def test_a_prompt_appended_token_by_token(torch, images, found):
    program = APPENDED_PROMPT.replace("N_IMAGES", images)
    _raises_and_is_reported_or_neither(program, found, "shape mismatch", (1, 7, 8))


# a prompt written as tokens, looked up word by word in a vocabulary of module constants
TOKEN_PROMPT = """
import torch
from torch import nn

IMG_START, IMG_PAD = 20, 21
WORD_IDS = {"<img>": IMG_START, "<pad>": IMG_PAD, "read": 3, "it": 4}
PROMPT = TOKENS

def expand(prompt, num_patches):
    ids = []
    for tok in prompt:
        if tok == "<img>":
            ids += [IMG_START] + [IMG_PAD] * num_patches
        else:
            ids.append(WORD_IDS[tok])
    return torch.tensor(ids)

def run(prompt=PROMPT):
    patches = torch.randn(4, 6)
    ids = expand(prompt, num_patches=patches.size(0))
    embeds = nn.Embedding(32, 8)(ids)
    feats = nn.Linear(6, 8)(patches)
    positions = (ids == IMG_PAD).nonzero().squeeze(-1)
    with torch.no_grad():
        return embeds.scatter(0, positions.unsqueeze(-1).expand(-1, 8), feats)

if __name__ == "__main__":
    run(PROMPT)
"""


@pytest.mark.parametrize("tokens, found", [('["<img>", "<pad>", "read", "it"]', ["GL003"]),
                                           ('["<img>", "read", "it"]', [])])
def test_a_prompt_looked_up_token_by_token(torch, tokens, found):
    # a "<pad>" token written in the prompt itself adds a fifth placeholder for four patch features
    program = TOKEN_PROMPT.replace("TOKENS", tokens)
    _raises_and_is_reported_or_neither(program, found, "no larger", (7, 8))


# tiles counted with round() by the processor; the same prompt stacked for each sample, its rows read one by one
TILES = """
import torch
from torch import nn

TILE, PER_TILE, IMAGE = 448, 4, 3

def count_tiles(height, width, most):
    cols = min(most, max(1, round(width / TILE)))
    rows = min(most // cols, max(1, round(height / TILE)))
    return rows * cols

def run():
    n = count_tiles(900, WIDTH, 6) * PER_TILE
    prompt = [1, 2] + [IMAGE] * n + [5]
    ids = torch.tensor([prompt, prompt])
    embeds = torch.zeros(2, len(prompt), 8)
    feats = torch.randn(2, 4 * PER_TILE, 8)
    positions = torch.stack([(row == IMAGE).nonzero().squeeze(-1) for row in ids])
    return embeds.scatter(1, positions.unsqueeze(-1).expand(-1, -1, 8), feats)

if __name__ == "__main__":
    run()
"""


@pytest.mark.parametrize("width, found", [("1800", []), ("1300", ["GL003"])])
def test_tiles_counted_with_round_against_the_features(torch, width, found):
    # 1800 wide: round(4.02) = 4 columns of one row, 4 tiles as the features; 1300: 3 x 2 = 6 tiles for 4
    program = TILES.replace("WIDTH", width)
    _raises_and_is_reported_or_neither(program, found, "no larger", (2, 19, 8))


def test_ids_changed_through_a_view_are_not_known_any_more(torch):
    program = """
import torch

def run():
    table = torch.randn(50, 4)
    ids = torch.tensor([[1, 52], [3, 4]])
    ids[:, 1].fill_(0)  # the 52 is gone
    return table[ids]

if __name__ == "__main__":
    run()
"""
    assert run(program).shape == (2, 2, 4)
    assert codes(program) == []
