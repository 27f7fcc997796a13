"""Index tensors made of the items of one id sequence pair its ids: co-occurrence and bigram counts written
without accumulating lose the pairs that recur. Each claim runs in torch."""
from .conftest import codes, lint
from .snippets import call_run

COOCCURRENCE = """
import torch

def window_pairs(doc_ids, window):
    centers, contexts = [], []
    for i in range(len(doc_ids)):
        for j in range(max(0, i - window), min(len(doc_ids), i + window + 1)):
            if j != i:
                centers.append(doc_ids[i])
                contexts.append(doc_ids[j])
    return torch.tensor(centers), torch.tensor(contexts)

def cooccurrence(docs, vocab_size, window=2):
    M = torch.zeros(vocab_size, vocab_size)
    for ids in docs:
        c, o = window_pairs(ids, window)
        M[c, o] += 1
    return M

def run():
    return cooccurrence([[0, 1, 0, 1, 2]], 3)
"""


def _reference(doc, window, size):
    counts = [[0] * size for _ in range(size)]
    for i in range(len(doc)):
        for j in range(max(0, i - window), min(len(doc), i + window + 1)):
            if j != i:
                counts[doc[i]][doc[j]] += 1
    return counts


def test_pairs_of_one_sequences_items_recur(torch):
    M = call_run(COOCCURRENCE)
    assert M.tolist() != _reference([0, 1, 0, 1, 2], 2, 3)  # (0, 1) occurs three times, counted once
    found = lint(COOCCURRENCE)
    assert [f.code for f in found] == ["GL013"] and "doc_ids" in found[0].message


def test_the_same_pairs_from_loop_names_recur_as_well(torch):
    code = COOCCURRENCE.replace("""    for i in range(len(doc_ids)):
        for j in range(max(0, i - window), min(len(doc_ids), i + window + 1)):
            if j != i:
                centers.append(doc_ids[i])
                contexts.append(doc_ids[j])""", """    for i, a in enumerate(doc_ids):
        for b in doc_ids[i + 1:i + 1 + window]:
            centers.append(a)
            contexts.append(b)""")
    assert code != COOCCURRENCE
    assert call_run(code).sum().item() < 7  # seven forward pairs, the repeated (0, 1) counted once
    assert codes(code) == ["GL013"]


def test_accumulating_counts_every_pair(torch):
    fixed = COOCCURRENCE.replace("M[c, o] += 1", "M.index_put_((c, o), torch.ones(len(c)), accumulate=True)")
    assert call_run(fixed).tolist() == _reference([0, 1, 0, 1, 2], 2, 3)
    assert codes(fixed) == []


def test_items_of_two_sequences_are_no_pairs_of_one(torch):
    # a sparse matrix's rows and columns: (src[k], dst[k]) pairs of two lists, which may all differ
    code = """
    import torch

    def edge_tensors(src_ids, dst_ids):
        rows, cols = [], []
        for k in range(len(src_ids)):
            rows.append(src_ids[k])
            cols.append(dst_ids[k])
        return torch.tensor(rows), torch.tensor(cols)

    def adjacency(src_ids, dst_ids, n):
        A = torch.zeros(n, n)
        r, c = edge_tensors(src_ids, dst_ids)
        A[r, c] += 1
        return A

    def run():
        return adjacency([0, 0, 1], [1, 2, 2], 3)
    """
    assert call_run(code).sum().item() == 3
    assert codes(code) == []


def test_a_list_also_filled_otherwise_says_nothing_of_its_items(torch):
    code = COOCCURRENCE.replace("    return torch.tensor(centers), torch.tensor(contexts)",
                                "    centers = centers + [0]\n    contexts = contexts + [2]\n"
                                "    return torch.tensor(centers), torch.tensor(contexts)")
    assert code != COOCCURRENCE
    call_run(code)
    assert codes(code) == []
