"""False findings of the twenty-first set of packages never linted before (benchmarks/README.md, "Twenty-first
set"), each as a small program in the style of the package's code: torch runs it as the package does, and the
linter stays silent. Beside each, the mistake the rule is for, still reported and shown wrong in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

torch = pytest.importorskip("torch")

# ocnn's octree search: searchsorted's one-past-the-end is replaced by -1 where the query is past the last key,
# and the key read there only tests for a hit; the hit mask selects what is copied, so the wrapped read never
# reaches the result.
SEARCH = """
import torch

def lookup_features(feats, keys, query):
    past_end = query > keys[-1]
    idx = torch.searchsorted(keys, query)
    idx[past_end] = -1
    found = keys[idx] == query
    out = torch.zeros(query.shape[0], feats.shape[1])
    out[found] = feats[idx[found]]
    return out

if __name__ == "__main__":
    keys = torch.tensor([2, 5, 9, 14])
    feats = torch.arange(8.0).view(4, 2)
    query = torch.tensor([5, 20, 9, 3])
    RESULT = lookup_features(feats, keys, query)
    table = {int(k): feats[i] for i, k in enumerate(keys)}
    EXPECTED = torch.stack([table.get(int(q), torch.zeros(2)) for q in query])
"""


def test_a_wrapped_read_that_only_tests_for_a_hit_is_left_alone():
    assert codes(SEARCH) == []
    scope = run_snippet(SEARCH)
    assert torch.equal(scope["RESULT"], scope["EXPECTED"])


def test_a_wrapped_read_used_as_data_is_still_reported():
    # the keys read at -1 are returned as the found keys: past-the-end queries get the last key
    code = SEARCH.replace("    found = keys[idx] == query\n", "    nearest = keys[idx]\n    found = nearest == query\n") \
        .replace("    return out\n", "    return out, nearest\n") \
        .replace("    RESULT = lookup_features(feats, keys, query)", "    RESULT, NEAREST = lookup_features(feats, keys, query)") \
        .replace("    EXPECTED = torch.stack", "    EXPECTED_ = torch.stack")
    assert codes(code) == ["GL010"]
    scope = run_snippet(code)
    assert scope["NEAREST"][1].item() == 14  # query 20 is past every key, yet it gets the last key, silently


# fireredasr's beam search (looked at, not linted by the set's helper; re-linted at the end): the GNMT length
# penalty `((5 + length) / 6) ** alpha` divides the summed log-probs by design, whatever the divisor is named.
LENGTH_PENALTY = """
import torch

def rescore(scores, ys_lengths, length_penalty):
    if length_penalty > 0.0:
        penalty = torch.pow((5 + ys_lengths.float()) / (5.0 + 1), length_penalty)
        scores /= penalty
    return scores

if __name__ == "__main__":
    scores = torch.tensor([[-4.0, -6.0]])  # summed log-probs of a short and a long hypothesis
    RESULT = rescore(scores.clone(), torch.tensor([[2, 8]]), 1.0)
"""


def test_a_gnmt_length_penalty_is_no_repetition_penalty():
    assert codes(LENGTH_PENALTY) == []
    scope = run_snippet(LENGTH_PENALTY)
    # the longer hypothesis is favoured after the normalisation, as GNMT means it to be
    assert scope["RESULT"][0, 1] > scope["RESULT"][0, 0]


def test_a_repetition_penalty_on_the_same_scores_is_still_reported():
    code = LENGTH_PENALTY.replace(
        "        penalty = torch.pow((5 + ys_lengths.float()) / (5.0 + 1), length_penalty)\n        scores /= penalty\n",
        "        logits = scores\n        logits[0, ys_lengths[0]] /= repetition_penalty\n") \
        .replace("def rescore(scores, ys_lengths, length_penalty):", "def rescore(scores, ys_lengths, length_penalty, repetition_penalty=1.3):") \
        .replace("torch.tensor([[2, 8]])", "torch.tensor([[0, 1]])")
    assert codes(code) == ["GL022"]
    scope = run_snippet(code)
    assert scope["RESULT"][0, 0] > -4.0  # the penalised negative score rose
