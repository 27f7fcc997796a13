"""A tensor stacked from pieces keeps each piece's range at its place: a record's columns (head, relation, tail)
or an edge list's rows (source, target) read back one at a time hold what their piece held, so a relation id
looked up in the entity table, or a source id in the target table, is out of range. Each claim runs in torch."""
import pytest

from .conftest import lint
from .snippets import run_snippet

TRIPLES = """
import torch
import torch.nn as nn

class ConvE(nn.Module):
    def __init__(self, num_entities, num_relations, dim):
        super().__init__()
        self.entities = nn.Embedding(num_entities, dim)
        self.relations = nn.Embedding(num_relations, dim)

    def forward(self, triples):
        READ
        return self.entities(subjects) * TABLE(relations)

def load_triples(num_entities, num_relations, n):
    heads = torch.randint(0, num_entities, (n,))
    rels = torch.randint(0, num_relations, (n,))
    tails = torch.randint(0, num_entities, (n,))
    return torch.stack([heads, rels, tails], dim=1)

if __name__ == "__main__":
    torch.manual_seed(0)
    model = ConvE(14, 55, 8)
    OUT = model(load_triples(14, 55, 64))
"""

# the same read of the relation column, spelled each way torch reads a column
READS = [
    "subjects, relations = triples[:, 0], triples[:, 1]",
    "subjects, relations = triples[:, 0:1].view(-1), triples[:, 1:2].view(-1)",
    "subjects, relations, _ = triples.unbind(1)",
    "subjects, relations, _ = triples.t()",
    "subjects, relations = triples.select(1, 0), triples.select(-1, 1)",
    "subjects, relations = triples[..., 0], triples.long()[:, 1]",
]


@pytest.mark.parametrize("read", READS)
def test_relation_ids_looked_up_in_the_entity_table_are_found(read, torch):
    program = TRIPLES.replace("READ", read).replace("TABLE", "self.entities")
    found = [(f.code, f.line) for f in lint(program)]
    assert found == [("GL011", 13)], found
    with pytest.raises(IndexError, match="index out of range"):
        run_snippet(program)


@pytest.mark.parametrize("read", READS)
def test_each_column_in_its_own_table_is_not(read, torch):
    program = TRIPLES.replace("READ", read).replace("TABLE", "self.relations")
    assert lint(program) == []
    assert tuple(run_snippet(program)["OUT"].shape) == (64, 8)


EDGES = """
import torch

def bipartite_edges(n_src, n_dst, e):
    return torch.stack([torch.randint(0, n_src, (e,)), torch.randint(0, n_dst, (e,))])

def message(x_src, x_dst, edge_index):
    READ
    return x_src[src] + x_dst[dst]

if __name__ == "__main__":
    torch.manual_seed(0)
    OUT = message(torch.randn(30, 4), torch.randn(8, 4), bipartite_edges(30, 8, 50))
"""


@pytest.mark.parametrize("made", [
    "torch.stack([heads, rels, tails], dim=-1)",
    "torch.cat([heads[:, None], rels[:, None], tails[:, None]], 1)",
    "torch.cat([heads.unsqueeze(1), rels.unsqueeze(1), tails.unsqueeze(1)], dim=1)",
])
def test_the_columns_made_each_way(made, torch):
    program = TRIPLES.replace("torch.stack([heads, rels, tails], dim=1)", made).replace("READ", READS[0])
    assert [(f.code, f.line) for f in lint(program.replace("TABLE", "self.entities"))] == [("GL011", 13)]
    assert lint(program.replace("TABLE", "self.relations")) == []
    with pytest.raises(IndexError, match="index out of range"):
        run_snippet(program.replace("TABLE", "self.entities"))


def test_padding_joined_on_each_run_of_a_loop_stays_a_list_of_like_items(torch):
    """A batch joined with padding of another length on each run (40 + 0, 33 + 7) is one kind of item all the
    same: the stack of them still holds the padding value that the loss rejects."""
    program = """
import torch
import torch.nn.functional as F

def pad_night(stages, n_epochs):
    pad = n_epochs - stages.shape[0]
    return torch.cat([stages, stages.new_full((pad,), -1)])

if __name__ == "__main__":
    nights = []
    for n_real in (40, 33, 27):
        nights.append(pad_night(torch.randint(0, 5, (n_real,)), 40))
    stages = torch.stack([y for y in nights])
    F.cross_entropy(torch.randn(3, 5, 40), stages)
"""
    assert [(f.code, f.line) for f in lint(program)] == [("GL011", 14)]
    with pytest.raises(IndexError, match="Target -1 is out of bounds"):
        run_snippet(program)


def test_source_ids_read_as_targets_are_found(torch):
    program = EDGES.replace("READ", "dst, src = edge_index")
    assert [(f.code, f.line) for f in lint(program)] == [("GL011", 9)]
    with pytest.raises(IndexError, match="out of bounds"):
        run_snippet(program)


@pytest.mark.parametrize("read", [
    "src, dst = edge_index",
    "src, dst = edge_index[0], edge_index[1]",
    # reordered along the rows: what row 0 held is no longer known, so nothing is claimed of it
    "dst, src = edge_index.flip(0)",
    "dst, src = edge_index[[1, 0]]",
    "e = edge_index.clone()\n    e[0] = e[1]\n    src, dst = e[1], e[1]",
])
def test_rows_read_in_place_or_reordered_are_not(read, torch):
    program = EDGES.replace("READ", read)
    assert lint(program) == []
    run_snippet(program)


def test_a_transposed_square_stack_keeps_no_parts():
    """A 2 x 2 stack transposed is again 2 x 2: which axis the pieces lie on is no longer told by the shape, so
    the fact is not made at all."""
    program = """
import torch

def run():
    a = torch.randint(0, 30, (2,))
    b = torch.randint(0, 2, (2,))
    pairs = torch.stack([a, b]).t()
    return torch.randn(2, 3)[pairs[1]]
"""
    assert lint(program) == []
