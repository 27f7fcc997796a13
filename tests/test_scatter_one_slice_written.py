"""GL009's twin of GL005: an index (and src) of size 1 on a dim beside `dim` where the tensor written is larger
writes only entry 0 of that dim; the other entries keep their values. Checked in several spellings, each run in
torch; a written tensor of size 1 there, or a size the index shares by name, stays silent."""
import textwrap

import pytest

from .conftest import codes, lint

torch = pytest.importorskip("torch")

FLAT_POSITIONS = {
    "comments": """
        import torch
        def merge(embeds, image, positions):
            # embeds: [B, L, D]  image: [B, K, D]  positions: [M]
            index = positions[None, :, None].expand(-1, -1, embeds.shape[-1])
            return embeds.scatter(1, index, image.reshape(index.shape))
        """,
    "constructors": """
        import torch
        embeds, image = torch.zeros(2, 6, 4), torch.randn(2, 3, 4)
        positions = torch.tensor([1, 2, 3, 3, 4, 5])
        index = positions.unsqueeze(0).unsqueeze(-1).expand(1, 6, 4)
        merged = torch.scatter(embeds, 1, index, image.reshape(index.shape))
        """,
    "keywords": """
        import torch
        def merge(embeds, image, positions):
            # embeds: [B, L, D]  image: [B, K, D]  positions: [M]
            index = positions.view(1, -1, 1).expand(-1, -1, embeds.size(2))
            return embeds.scatter(dim=1, index=index, src=image.reshape(index.shape))
        """,
}


@pytest.mark.parametrize("style", sorted(FLAT_POSITIONS))
def test_a_batch_of_one_index_writes_row_zero_only(style):
    found = lint(textwrap.dedent(FLAT_POSITIONS[style]))
    assert [f.code for f in found] == ["GL009"], found
    assert "only entry 0 of dim 0" in found[0].message


def test_torch_writes_row_zero_only():
    embeds, image = torch.zeros(2, 6, 4), torch.randn(2, 3, 4)
    positions = torch.tensor([1, 2, 3, 3, 4, 5])  # both rows' image tokens, flattened
    index = positions[None, :, None].expand(-1, -1, 4)
    merged = embeds.scatter(1, index, image.reshape(index.shape))
    assert merged[1].abs().sum() == 0  # row 1 never written
    assert not torch.equal(merged[0, 3], image[0, 2])  # row 0's slot 3 holds row 1's feature instead


def test_a_written_tensor_of_one_row_is_silent():
    code = """
    import torch
    def merge(embeds, image, positions):
        # embeds: [1, L, D]  image: [1, K, D]  positions: [K]
        index = positions[None, :, None].expand(-1, -1, embeds.shape[-1])
        return embeds.scatter(1, index, image)
    """
    assert codes(code) == []


def test_literal_positions_keep_their_values_under_new_axes():
    # `positions[:, :, None]` keeps every value: the facts of the literal go with them, and a finding names them
    code = """
    import torch
    positions = torch.tensor([[1, 2, 2], [3, 4, 5]])  # [B, K]
    index = positions[:, :, None].expand(-1, -1, 16)
    out = torch.zeros(2, 6, 16).scatter(1, index, torch.randn(2, 3, 16))
    """
    found = [f for f in lint(code) if f.code == "GL013"]
    assert found and "values written at line 3" in found[0].message, found
    index = torch.tensor([[1, 2, 2], [3, 4, 5]])[:, :, None].expand(-1, -1, 16)
    assert index[0, :, 0].unique().numel() < 3  # torch: position 2 of row 0 written twice, one write lost


def test_hit_columns_viewed_per_row_are_no_repeats(torch):
    # `(ids == IMG).nonzero()[:, 1].view(B, K)`: each row of the view is one row's hits, each column once;
    # the columns recur across rows only, which a scatter along dim 1 keeps apart
    code = """
    import torch
    IMG = 7
    ids = torch.tensor([[1, IMG, IMG, IMG, 5, 6], [1, 2, 3, IMG, IMG, IMG]])  # [B, L]
    positions = (ids == IMG).nonzero()[:, 1].view(2, 3)
    image = torch.randn(2, 3, 4)
    out = torch.zeros(2, 6, 4).scatter(1, positions[:, :, None].expand(-1, -1, 4), image)
    flat = torch.zeros(6).index_put_(((ids == IMG).nonzero()[:, 1],), torch.randn(6))
    """
    found = lint(code)
    assert [(f.code, f.line) for f in found] == [("GL013", 8)], found  # the flat columns do repeat
    ids = torch.tensor([[1, 7, 7, 7, 5, 6], [1, 2, 3, 7, 7, 7]])
    positions = (ids == 7).nonzero()[:, 1].view(2, 3)
    assert all(row.unique().numel() == 3 for row in positions)  # torch: distinct within each row
    assert (ids == 7).nonzero()[:, 1].unique().numel() < 6  # and repeated across rows


PER_ROW_SLOTS = """
import torch
positions = torch.tensor([[1, 2, 3], [3, 4, 5]])  # [B, K]: 3 in both rows, once in each
out = WRITE
"""


@pytest.mark.parametrize("write, entries", [
    ("torch.zeros(2, 6).scatter(1, positions, torch.randn(2, 3))", 6),
    ("torch.zeros(2, 6, 4).scatter(1, positions[:, :, None].expand(-1, -1, 4), torch.randn(2, 3, 4))", 24),
    ("torch.zeros(2, 6, 4).scatter(1, positions.unsqueeze(-1).expand(-1, -1, 4), torch.randn(2, 3, 4))", 24),
    ("torch.zeros(6, 2).scatter(0, positions.t(), torch.randn(3, 2))", 6),
    ("torch.zeros(6, 2, 4).scatter(0, positions.t()[:, :, None].expand(-1, -1, 4), torch.randn(3, 2, 4))", 24),
    ("torch.zeros(4, 6, 2).scatter(1, positions.t()[None].expand(4, -1, -1), torch.randn(4, 3, 2))", 24),
])
def test_values_shared_across_rows_scattered_along_each_row_are_no_repeats(write, entries):
    # the value shared by two rows lands in two different lines of the scatter: each line names a position once
    program = PER_ROW_SLOTS.replace("WRITE", write)
    assert codes(program) == []
    scope = {}
    exec(program, scope)
    assert (scope["out"] != 0).sum().item() == entries  # torch: every entry written, none lost to a collision


@pytest.mark.parametrize("write", [
    "torch.zeros(6, 3).scatter(0, positions, torch.randn(2, 3))",  # along the rows: 3 meets 3
    "torch.zeros(2, 6, 4).scatter(0, positions[:, :, None].expand(-1, -1, 4), torch.randn(2, 3, 4))",
])
def test_the_same_values_scattered_across_the_rows_still_collide(write):
    program = PER_ROW_SLOTS.replace("WRITE", write)
    assert "GL013" in codes(program)
