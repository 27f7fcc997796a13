"""GL027: a tensor in a sort's order indexed with that sort's permutation again. Each program runs in
torch: the reported form puts entries in the wrong places, the inverse-permutation forms put them back."""
import pytest

from .conftest import codes
from .snippets import call_run as run

torch = pytest.importorskip("torch")

NUCLEUS = """
import torch
from jaxtyping import Float

def top_p(logits: Float[torch.Tensor, "batch vocab"], thres: float = 0.6):
    sorted_logits, sorted_indices = torch.sort(logits, descending=True)
    cum_probs = torch.cumsum(torch.softmax(sorted_logits, dim=-1), dim=-1)
    remove = cum_probs > thres
    remove[:, 1:] = remove[:, :-1].clone()
    remove[:, 0] = False
    sorted_logits[remove] = float("-inf")
    return sorted_logits.gather(1, sorted_indices)

def run():
    return top_p(torch.tensor([[0.1, 2.0, -1.0, 0.5, 1.5], [1.0, -0.5, 0.3, 2.5, 0.0]]))
"""


def nucleus_reference(rows, thres=0.6):
    out = []
    for row in rows:
        order = sorted(range(len(row)), key=lambda i: -row[i])
        probs = torch.softmax(torch.tensor([row[i] for i in order]), 0).tolist()
        kept, total = [float("-inf")] * len(row), 0.0
        for rank, i in enumerate(order):
            if rank == 0 or total <= thres:
                kept[i] = row[i]
            total += probs[rank]
        out.append(kept)
    return out


ROWS = [[0.1, 2.0, -1.0, 0.5, 1.5], [1.0, -0.5, 0.3, 2.5, 0.0]]


def test_unsorting_nucleus_logits_with_gather_is_reported_and_wrong_in_torch():
    assert codes(NUCLEUS) == ["GL027"]
    assert run(NUCLEUS).tolist() != nucleus_reference(ROWS)  # the permutation applied twice


@pytest.mark.parametrize("fixed", [
    "sorted_logits.gather(1, sorted_indices.argsort(1))",
    "sorted_logits.scatter(1, sorted_indices, sorted_logits)",
    "torch.empty_like(sorted_logits).scatter_(1, sorted_indices, sorted_logits)",
])
def test_the_inverse_permutation_is_silent_and_right(fixed):
    code = NUCLEUS.replace("sorted_logits.gather(1, sorted_indices)", fixed)
    assert codes(code) == []
    assert run(code).tolist() == nucleus_reference(ROWS)


@pytest.mark.parametrize("rewrite", [
    ("torch.sort(logits, descending=True)", "logits.sort(dim=-1, descending=True)"),  # method form, keyword dim
    ("sorted_logits.gather(1, sorted_indices)", "torch.gather(sorted_logits, 1, sorted_indices)"),
    ("sorted_logits.gather(1, sorted_indices)", "torch.take_along_dim(sorted_logits, sorted_indices, dim=-1)"),
    ("sorted_logits.gather(1, sorted_indices)", "(sorted_logits / 0.7).gather(1, sorted_indices.long())"),
    ("sorted_logits[remove] = float(\"-inf\")", "sorted_logits = sorted_logits.masked_fill(remove, float(\"-inf\"))"),
])
def test_other_spellings_of_the_same_program_keep_the_finding(rewrite):
    code = NUCLEUS.replace(*rewrite)
    assert codes(code) == ["GL027"]
    out = run(code)
    reference = torch.tensor(nucleus_reference(ROWS))
    assert not torch.equal(out, reference) and not torch.equal(out, reference / 0.7)


def test_gathering_the_original_by_the_permutation_sorts_it_and_is_silent():
    code = """
    import torch
    def run():
        logits = torch.tensor([[0.1, 2.0, -1.0, 0.5, 1.5], [1.0, -0.5, 0.3, 2.5, 0.0]])
        order = logits.argsort(dim=1, descending=True)
        ranked = logits.gather(1, order)
        return ranked
    """
    assert codes(code) == []
    assert torch.equal(run(code), torch.tensor([sorted(row, reverse=True) for row in ROWS]))
    # ... and gathering that sorted copy by the same order again is the mistake
    twice = code.replace("return ranked", "return ranked.gather(1, order)")
    assert codes(twice) == ["GL027"]
    assert not torch.equal(run(twice), torch.tensor(ROWS))


def test_another_sorts_permutation_is_silent():
    code = """
    import torch
    def run():
        scores = torch.tensor([[0.1, 2.0, -1.0], [1.0, -0.5, 0.3]])
        ranked, order = scores.sort(dim=1)
        other = torch.tensor([[3, 1, 2], [2, 3, 1]]).argsort(dim=1)
        return ranked.gather(1, other)
    """
    assert codes(code) == []
    run(code)


def test_rows_sorted_by_length_and_put_back_with_the_sort_index():
    # an encoder that sorts a batch by length, then "restores" the rows with the same index
    code = """
    import torch
    def run():
        lengths = torch.tensor([3, 5, 2, 4])
        hidden = torch.arange(8.0).view(4, 2)  # [B, H]
        sorted_len, sort_idx = lengths.sort(descending=True)
        ordered = hidden.index_select(0, sort_idx)
        encoded = ordered * 10
        return encoded.index_select(0, sort_idx)
    """
    assert codes(code) == ["GL027"]
    assert run(code).tolist() != (torch.arange(8.0).view(4, 2) * 10).tolist()
    fixed = code.replace("encoded.index_select(0, sort_idx)", "encoded.index_select(0, sort_idx.argsort())")
    assert codes(fixed) == []
    assert run(fixed).tolist() == (torch.arange(8.0).view(4, 2) * 10).tolist()


def test_a_sort_along_another_dim_is_silent():
    code = """
    import torch
    def run():
        x = torch.randn(3, 3)
        values, idx = x.sort(dim=0)
        return values.gather(1, idx)
    """
    assert codes(code) == []
    run(code)


SUBSCRIPTS = """
import torch

def route(tokens, expert_ids):
    # tokens: [T, D], expert_ids: [T]
    order = expert_ids.argsort()
    grouped = tokens[order]
    processed = grouped * 10
    return processed[order]

def run():
    return route(torch.arange(12.0).view(6, 2), torch.tensor([2, 0, 1, 2, 0, 1]))
"""


def test_rows_grouped_by_a_subscript_and_put_back_with_the_same_key_are_reported_and_wrong():
    assert codes(SUBSCRIPTS) == ["GL027"]
    assert not torch.equal(run(SUBSCRIPTS), torch.arange(12.0).view(6, 2) * 10)


@pytest.mark.parametrize("fixed", [
    "processed[order.argsort()]",
    "torch.empty_like(processed).index_copy_(0, order, processed)",
])
def test_rows_put_back_with_the_inverse_are_silent_and_right(fixed):
    code = SUBSCRIPTS.replace("processed[order]", fixed)
    assert codes(code) == []
    assert torch.equal(run(code), torch.arange(12.0).view(6, 2) * 10)


def test_a_random_shuffle_undone_with_the_same_permutation_is_reported_and_wrong():
    code = """
    import torch

    def augment(x):
        # x: [N, D]
        perm = torch.randperm(x.size(0), generator=torch.Generator().manual_seed(3))
        shuffled = x[perm]
        mixed = shuffled + 0.0
        return mixed[perm]

    def run():
        return augment(torch.arange(10.0).view(5, 2))
    """
    assert codes(code) == ["GL027"]
    assert not torch.equal(run(code), torch.arange(10.0).view(5, 2))
    fixed = code.replace("return mixed[perm]", "return mixed[perm.argsort()]")
    assert codes(fixed) == []
    assert torch.equal(run(fixed), torch.arange(10.0).view(5, 2))
