"""Index values the code makes out of range: padding filled in through where/new_full/cat, values
clamped to a table's size by `x[x > n] = n`, and advanced indexing `table[idx]` as a site for them.
Every claim a finding makes is run in torch here."""
import textwrap

import pytest

from .conftest import codes, lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str, torch):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


PADDED_BY_WHERE = """
import torch

def pool(values, groups, is_pad, count):
    groups = torch.where(is_pad, torch.full_like(groups, -1), groups)
    out = values.new_zeros(values.size(0), count, values.size(2))
    return out.scatter_add_(1, groups.unsqueeze(-1).expand_as(values), values)
"""


def test_padding_filled_in_by_where_reaches_scatter(torch):
    assert findings(PADDED_BY_WHERE) == [(7, "GL011")]
    pool = run(PADDED_BY_WHERE, torch)["pool"]
    with pytest.raises(RuntimeError, match="index -1 is out of bounds"):
        pool(torch.randn(2, 5, 3), torch.randint(0, 4, (2, 5)), torch.arange(5).expand(2, 5) >= 3, 4)


def test_padding_reaches_a_helper_through_its_caller(torch):
    code = """
    import torch

    def accumulate(feats, slots, n_slots):
        table = feats.new_zeros(feats.size(0), n_slots)
        return table.scatter_add_(1, slots, feats)

    def run(feats, slots, dropped, n_slots):
        slots = torch.where(dropped, -1, slots)
        return accumulate(feats, slots, n_slots)
    """
    assert findings(code) == [(6, "GL011")]
    fn = run(code, torch)["run"]
    with pytest.raises(RuntimeError, match="index -1 is out of bounds"):
        fn(torch.ones(2, 4), torch.zeros(2, 4, dtype=torch.long), torch.eye(2, 4, dtype=torch.bool), 3)


def test_where_that_replaces_padding_with_zeros_stays_silent():
    code = """
    import torch

    def logps(logits, labels, ignore_id=-100):
        keep = labels.ne(ignore_id)
        safe = torch.where(keep, labels, torch.zeros_like(labels))
        return logits.log_softmax(-1).gather(-1, safe[..., None])[..., 0] * keep

    out = logps(torch.randn(2, 3, 5), torch.tensor([[1, -100, 2], [0, 1, -100]]))
    """
    assert findings(code) == []


MISSING_AS_MINUS_ONE = """
import torch

def nearest_labels(dists, labels, k):
    ids = dists.topk(k, dim=1, largest=False).indices
    ids = torch.where(dists.gather(1, ids) < 1.0, ids, -1)
    return labels[ids]
"""


def test_minus_one_ids_wrap_in_advanced_indexing(torch):
    found = lint(MISSING_AS_MINUS_ONE)
    assert [(f.line, f.code) for f in found] == [(7, "GL010")]
    assert "-1 silently reads the last entry of `labels`" in found[0].message
    fn = run(MISSING_AS_MINUS_ONE, torch)["nearest_labels"]
    labels = torch.tensor([10, 11, 12])
    got = fn(torch.tensor([[0.5, 5.0, 6.0]]), labels, 2)
    assert got.tolist() == [[10, 12]]  # the missing neighbour read the last label, no error


def test_padding_handled_around_the_lookup_stays_silent():
    code = """
    import torch

    def nearest_labels(dists, labels, k):
        ids = dists.topk(k, dim=1, largest=False).indices
        ids = torch.where(dists.gather(1, ids) < 1.0, ids, -1)
        found = labels[ids]
        return found.masked_fill(ids < 0, -1)
    """
    assert findings(code) == []


CLAMPED_TO_TABLE_SIZE = """
import torch

def cap(counts, limit):
    counts = counts.clone()
    counts[counts > limit] = limit
    return counts

class HopBias(torch.nn.Module):
    def __init__(self, max_hops, width):
        super().__init__()
        self.max_hops = max_hops
        self.bias = torch.nn.Parameter(torch.zeros(max_hops, width))

    def forward(self, hops):
        return self.bias[cap(hops.long(), self.max_hops)]

layer = HopBias(max_hops=4, width=3)
if __name__ == "__main__":
    print(layer(torch.tensor([0, 2, 7])))
"""


def test_values_clamped_to_the_table_size_read_one_past_its_end(torch):
    found = lint(CLAMPED_TO_TABLE_SIZE)
    assert [(f.line, f.code) for f in found] == [(16, "GL011")]
    assert "values that include 4" in found[0].message and "has size 4, valid positions 0 to 3" in found[0].message
    layer = run(CLAMPED_TO_TABLE_SIZE, torch)["layer"]
    with pytest.raises(IndexError, match="index 4 is out of bounds for dimension 0 with size 4"):
        layer(torch.tensor([0, 2, 7]))


def test_values_clamped_to_the_last_row_stay_silent(torch):
    code = CLAMPED_TO_TABLE_SIZE.replace("self.max_hops)]", "self.max_hops - 1)]")
    assert findings(code) == []
    layer = run(code, torch)["layer"]
    assert layer(torch.tensor([0, 2, 7])).shape == (3, 3)


def test_padding_in_a_scripts_loop_is_not_flagged():
    code = """
    import torch
    target = torch.randint(0, 6, (20,))
    target[3] = -100
    dist = torch.zeros(20, 6)
    for i in range(20):
        if target[i] == -100:
            continue
        dist[i, target[i]] = 1.0
    """
    assert findings(code) == []


CLAMPED_BUCKETS = """
import torch
import torch.nn as nn

class DistanceBias(nn.Module):
    def __init__(self, max_distance, heads):
        super().__init__()
        self.max_distance = max_distance
        self.table = nn.Embedding(max_distance, heads)

    def forward(self, length):  # the file also gathers (below): files naming no op are not analysed
        pos = torch.arange(length)
        distance = (pos[None, :] - pos[:, None]).abs().clamp(max=self.max_distance)
        return self.table(distance)

def pick(scores, idx):
    return scores.gather(1, idx)

if __name__ == "__main__":
    print(DistanceBias(6, 2)(10).shape)
"""


def test_clamp_to_the_embedding_size_reads_one_past_its_end(torch):
    found = lint(CLAMPED_BUCKETS)
    assert [(f.line, f.code) for f in found] == [(14, "GL011")]
    assert "clamped to at most 6" in found[0].message and "has 6 rows (valid ids 0 to 5)" in found[0].message
    layer = run(CLAMPED_BUCKETS, torch)["DistanceBias"](6, 2)
    with pytest.raises(IndexError, match="index out of range in self"):
        layer(10)


def test_clamp_to_the_last_embedding_row_stays_silent(torch):
    code = CLAMPED_BUCKETS.replace("clamp(max=self.max_distance)", "clamp(max=self.max_distance - 1)")
    assert findings(code) == []
    assert run(code, torch)["DistanceBias"](6, 2)(10).shape == (10, 10, 2)


def test_clamp_into_a_functional_embedding(torch):
    code = """
    import torch
    import torch.nn.functional as F

    def lookup(steps, n):
        weight = torch.randn(n, 4)
        return F.embedding(steps.clamp(0, n), weight)

    def pick(scores, idx):
        return scores.gather(1, idx)

    if __name__ == "__main__":
        print(lookup(torch.arange(9), 5))
    """
    assert findings(code) == [(7, "GL011")]
    with pytest.raises(IndexError, match="index out of range in self"):
        torch.nn.functional.embedding(torch.arange(9).clamp(0, 5), torch.randn(5, 4))


PADDED_SEQUENCES = """
import torch
import torch.nn as nn

def collate(seqs, fill):
    return nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=fill)

class Tagger(nn.Module):
    def __init__(self, vocab, width, pad: int = -1):
        super().__init__()
        self.pad = pad
        self.embed = nn.Embedding(vocab, width)

    def forward(self, tokens):
        return self.embed(tokens).sum(1)

    def score(self, tokens):
        return self(tokens).norm(dim=-1)

if __name__ == "__main__":
    tagger = Tagger(10, 4).eval()
    batch = collate([torch.tensor([1, 2, 3]), torch.tensor([4])], tagger.pad)
    print(tagger.score(batch))
"""


def test_pad_sequence_padding_reaches_an_embedding_through_methods(torch):
    found = lint(PADDED_SEQUENCES)
    assert [(f.line, f.code) for f in found] == [(15, "GL011")]
    assert "padding value -1 (set at line 6)" in found[0].message
    scope = run(PADDED_SEQUENCES, torch)
    batch = scope["collate"]([torch.tensor([1, 2, 3]), torch.tensor([4])], -1)
    with pytest.raises(IndexError, match="index out of range in self"):
        scope["Tagger"](10, 4).eval().score(batch)


def test_pad_sequence_with_a_valid_padding_id_stays_silent():
    assert findings(PADDED_SEQUENCES.replace("pad: int = -1", "pad: int = 0")) == []


EXTENDED_IDS = """
import torch

def copy_mix(gen_probs, copy_attn, source_ids):
    return gen_probs.scatter_add(1, source_ids, copy_attn)

if __name__ == "__main__":
    batch, vocab, src_len = 3, 20, 7
    ids = torch.randint(0, vocab, (batch, src_len))
    ids[1, 2] = vocab + 1  # an out-of-vocabulary source word gets an extended id
    print(copy_mix(torch.rand(batch, vocab), torch.rand(batch, src_len), ids))
"""


def test_an_id_written_past_a_named_vocabulary_reaches_the_scatter(torch):
    found = lint(EXTENDED_IDS)
    assert [(f.line, f.code) for f in found] == [(5, "GL011")]
    assert "values that include 21" in found[0].message and "has size vocab = 20" in found[0].message
    ids = torch.randint(0, 20, (3, 7))
    ids[1, 2] = 21
    with pytest.raises(RuntimeError, match="index 21 is out of bounds for dimension 1 with size 20"):
        torch.rand(3, 20).scatter_add(1, ids, torch.rand(3, 7))


def test_an_id_written_inside_a_named_vocabulary_stays_silent():
    assert findings(EXTENDED_IDS.replace("ids[1, 2] = vocab + 1", "ids[1, 2] = 3")) == []


ONE_BASED_RATINGS = """
import torch

NUM_STARS = 5

def soft_targets(stars):
    # stars: [B] review ratings in 1..NUM_STARS
    targets = torch.zeros(stars.shape[0], NUM_STARS)
    return targets.scatter(1, stars.unsqueeze(1), 1.0)

if __name__ == "__main__":
    print(soft_targets(torch.tensor([1, 3, 4])))
"""


def test_one_based_labels_stated_in_a_comment_overrun_the_one_hot(torch):
    found = lint(ONE_BASED_RATINGS)
    assert [(f.line, f.code) for f in found] == [(9, "GL011")]
    assert "1-based (1 to NUM_STARS = 5, by the comment at line 7)" in found[0].message
    assert "has size NUM_STARS = 5" in found[0].message
    fn = run(ONE_BASED_RATINGS, torch)["soft_targets"]
    assert fn(torch.tensor([1, 3, 4])).argmax(1).tolist() == [1, 3, 4]  # silently one column to the right
    with pytest.raises(RuntimeError, match="index 5 is out of bounds for dimension 1 with size 5"):
        fn(torch.tensor([5]))


def test_one_based_labels_shifted_down_stay_silent():
    assert findings(ONE_BASED_RATINGS.replace("stars.unsqueeze(1), 1.0", "stars.unsqueeze(1) - 1, 1.0")) == []


def test_a_range_within_the_size_is_no_overrun():
    for comment in ("# stars: [B] review ratings in 0..NUM_STARS - 1", "# stars: [B] in 1..NUM_STARS - 1", "# stars: [B]"):
        assert findings(ONE_BASED_RATINGS.replace("# stars: [B] review ratings in 1..NUM_STARS", comment)) == []


def test_module_constants_size_tensors_in_functions():
    from gather_lint.static.module_constants import constants

    text = "N_CLASSES = 10\nHIDDEN: int = 64  # width\nSTEPS = 3\nSTEPS = 4\nlower = 5\n"
    # a name bound once to an int is a constant whatever its spelling (`lower`); one bound twice is not
    assert {k: v.dim.size for k, v in constants(text).items()} == {"N_CLASSES": 10, "HIDDEN": 64, "lower": 5}
    # read from the lines that start with a capital, as the one MULTILINE pattern reads every line
    from gather_lint.static.module_constants import _CONSTANT, _matches
    for sample in (text, "\n" + text, "x = 1\nA = 2\n  B = 3\nC=4", "A\n= 5\nB = 6 # six\n"):
        assert [m.groups() for m in _matches(sample)] == _CONSTANT.findall(sample)



def test_names_bound_together_to_numbers_are_constants():
    from gather_lint.static.module_constants import constants

    text = "PATCH, MERGE = 14, 2\nboi, eoi = 60, 62  # image span\nA, B = 1, f()\nx, y = 3, 4\nx = 5\n"
    # whatever the spelling; a line that binds a call is no constant, nor is a name bound again
    assert {k: v.dim.size for k, v in constants(text).items()} == {"PATCH": 14, "MERGE": 2, "boi": 60, "eoi": 62,
                                                                   "y": 4}

IGNORE_IN_ATTRIBUTE = '''
import torch
import torch.nn.functional as F

IGNORE = 255

class Frames:
    def __init__(self, n, classes):
        self.masks = torch.randint(0, classes, (n, 6, 6))
        self.masks[:, 0, :] = {FILL}  # the annotation tool's unlabelled border

def dice_target(label, classes):
    return F.one_hot(label.to(torch.int64), num_classes=classes)

if __name__ == "__main__":
    frames = Frames(4, 5)
    target = dice_target(frames.masks, 5)
'''


def test_a_value_written_into_an_attribute_by_subscript_is_one_of_its_values(torch):
    # `self.masks[:, 0, :] = 255` in __init__ puts 255 among the attribute's values, as it would for a local
    code = IGNORE_IN_ATTRIBUTE.format(FILL="IGNORE")
    assert codes(code) == ["GL011"]
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes"):
        exec(textwrap.dedent(code), {"__name__": "__main__"})
    fitting = IGNORE_IN_ATTRIBUTE.format(FILL="0")
    assert codes(fitting) == []
    exec(textwrap.dedent(fitting), {"__name__": "__main__"})


LITERAL_BOUND_EQUAL_TO_ANOTHER_DIM = """
import torch

CONFIG = {"num_classes": 4, "patch": 8}

def onehot(label, num_classes):
    n, _, h, w = label.shape
    result = torch.zeros((n, num_classes, h, w))
    result.scatter_(1, label, 1.0)
    return result

def main():
    patch = CONFIG["patch"]
    label = torch.randint(0, 8, (3, 1, patch, patch))
    return onehot(label, CONFIG["num_classes"])

if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("high", [8, 9])
def test_literal_bound_equal_to_another_dims_size_is_still_out_of_range(torch, high):
    """Labels drawn below 8 meet a one-hot of 4 channels on patches of 8: the bound matches the patch
    size by chance, GL004 has nothing to say, and values from 4 up raise all the same."""
    code = LITERAL_BOUND_EQUAL_TO_ANOTHER_DIM.replace("randint(0, 8,", f"randint(0, {high},")
    assert findings(code) == [(9, "GL011")]
    with pytest.raises(RuntimeError, match="out of bounds"):
        run(code, torch)["main"]()


NEIGHBOUR_LISTS = """
import torch

def collate(adj_lists, pad=-1):
    k = max(len(a) for a in adj_lists)
    out = torch.full((len(adj_lists), k), {FILL}, dtype=torch.long)
    for i, a in enumerate(adj_lists):
        out[i, : len(a)] = torch.tensor(a, dtype=torch.long)
    return out

def aggregate(x, adj_lists):
    nbr = collate(adj_lists)
    return x[nbr].sum(1)

def main():
    return aggregate(torch.arange(12.0).view(4, 3), [[1, 2], [0], [0, 1, 3], [2]])
"""


@pytest.mark.parametrize("fill", ["pad", "-1"])
def test_a_negative_fill_of_a_padded_buffer_reaches_a_lookup(torch, fill):
    """Neighbour lists of unequal length padded with -1 (a parameter's default or written in the fill): the
    lookup wraps every -1 to the last node, silently. Written as a nested list in the call, the lists are
    facts a library helper is run with."""
    code = NEIGHBOUR_LISTS.replace("{FILL}", fill)
    assert findings(code) == [(13, "GL010")]
    out = run(code, torch)["main"]()
    assert out[1].tolist() == [0.0 + 2 * 9.0, 1.0 + 2 * 10.0, 2.0 + 2 * 11.0]  # node 1: node 0, then node 3 twice


def test_a_padded_buffer_written_whole_stays_silent():
    code = NEIGHBOUR_LISTS.replace("{FILL}", "pad").replace("out[i, : len(a)]", "out[i]").replace(
        "[[1, 2], [0], [0, 1, 3], [2]]", "[[1, 2], [0, 3], [0, 1], [2, 2]]")
    assert findings(code) == []
