"""`x.new_zeros(sizes)` is a fresh tensor of those sizes whatever `x` is: a buffer the function fills, even
when nothing is known of the tensor it was made from (a custom backward's `grad_out`)."""
from .conftest import codes
from .snippets import call_run as run
from .snippets import run_snippet

BACKWARD = """
import torch


def embedding_backward(grad_out, ids, num_rows):
    dim = grad_out.size(-1)
    grad_weight = grad_out.new_zeros(num_rows, dim)
    grad_weight[ids.reshape(-1)] += grad_out.reshape(-1, dim)
    return grad_weight


def run():
    ids = torch.tensor([[1, 1, 2], [1, 0, 2]])
    grad = torch.ones(2, 3, 4)
    return embedding_backward(grad, ids, 3)[:, 0].tolist()
"""


def test_ids_added_into_a_new_zeros_buffer_of_an_unknown_tensor(torch):
    assert codes(BACKWARD) == ["GL013"]
    assert run(BACKWARD) == [1.0, 1.0, 1.0]  # torch: row 1 is hit three times and holds 1, not 3
    fixed = BACKWARD.replace("grad_weight[ids.reshape(-1)] += grad_out.reshape(-1, dim)",
                             "grad_weight.index_add_(0, ids.reshape(-1), grad_out.reshape(-1, dim))")
    assert codes(fixed) == []
    assert run(fixed) == [1.0, 3.0, 2.0]


def test_distinct_positions_into_the_same_buffer_stay_silent(torch):
    program = BACKWARD.replace("grad_weight[ids.reshape(-1)] += grad_out.reshape(-1, dim)",
                               "grad_weight[torch.arange(num_rows)] += grad_out.reshape(-1, dim)[:num_rows]")
    assert codes(program) == []
    assert run(program) == [1.0, 1.0, 1.0]  # each row written once: nothing is lost


MESH = """
import torch


def vertex_normals(verts, faces):
    v0, v1, v2 = verts[faces[:, 0]], verts[faces[:, 1]], verts[faces[:, 2]]
    face_normals = torch.cross(v1 - v0, v2 - v0, dim=-1)
    normals = torch.zeros_like(verts)
    for k in range(3):
        normals[faces[:, k]] += face_normals
    return torch.nn.functional.normalize(normals, dim=-1)


def run():
    verts = torch.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]])
    faces = torch.tensor([[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]])
    return vertex_normals(verts, faces)[4].tolist()
"""


def test_a_face_lists_vertex_ids_repeat_across_faces(torch):
    """A mesh's faces share vertices: added per face with `+=`, each shared vertex keeps one face's normal."""
    assert codes(MESH) == ["GL013"]
    apex = run(MESH)
    assert abs(apex[0]) > 0.1 or abs(apex[1]) > 0.1  # torch: the apex normal leans to one face, not [0, 0, 1]
    fixed = MESH.replace("normals[faces[:, k]] += face_normals", "normals.index_add_(0, faces[:, k], face_normals)")
    assert codes(fixed) == []
    assert [round(v, 6) for v in run(fixed)] == [0.0, 0.0, 1.0]


RANGE_IMAGE = """
import torch


def project(points, height, width):
    depth = points.norm(dim=1)
    u = ((torch.atan2(points[:, 1], points[:, 0]) / 3.1416 + 1.0) * 0.5 * width).long().clamp(0, width - 1)
    v = ((points[:, 2] / depth + 1.0) * 0.5 * height).long().clamp(0, height - 1)
    image = torch.full((height, width), -1.0)
    image[v, u] = depth
    return image, v, u, depth


def run():
    torch.manual_seed(0)
    points = torch.randn(500, 3) * 10
    image, v, u, depth = project(points, 8, 16)
    closest = torch.full((8, 16), float("inf"))
    for i in range(len(depth)):
        closest[v[i], u[i]] = min(closest[v[i], u[i]].item(), depth[i].item())
    hit = torch.isfinite(closest)
    return bool((image[hit] == closest[hit]).all())


if __name__ == "__main__":
    print(run())
"""


def test_a_buffer_filled_with_a_constant_is_a_buffer_being_filled(torch):
    """A range image starts as -1 ("no point"): points quantised to one pixel overwrite each other."""
    assert codes(RANGE_IMAGE) == ["GL013"]
    assert run(RANGE_IMAGE) is False  # torch: pixels keep the last point written, not the closest
    fixed = RANGE_IMAGE.replace(
        "    image[v, u] = depth\n",
        "    image = image.view(-1).scatter_reduce(0, v * width + u, depth, 'amin', include_self=False).view(height, width)\n")
    assert codes(fixed) == []
    assert run(fixed) is True


def test_top_k_ids_are_distinct_within_their_row(torch):
    program = """
import torch


def sparse_target(logits, teacher_topk_ids, teacher_topk_logprobs):
    full = torch.full_like(logits, float("-inf"))
    return full.scatter(-1, teacher_topk_ids, teacher_topk_logprobs)


def run():
    logits = torch.randn(2, 10)
    values, ids = torch.randn(2, 10).log_softmax(-1).topk(3, dim=-1)
    out = sparse_target(logits, ids, values)
    return bool((out.gather(-1, ids) == values).all())
"""
    assert codes(program) == []
    assert run(program) is True  # torch: every top-k value is kept, none overwritten


def test_digits_recombined_in_mixed_radix_do_not_repeat(torch):
    """Quotients and remainders of one arange added back together are distinct positions: a row shuffle's
    inverse written into a fresh buffer loses nothing (a real kernel-weight layout helper)."""
    program = """
import torch


def shuffle_rows(weight):
    rows = weight.shape[1]
    logical_row = torch.arange(rows)
    row_in_block = logical_row % 32
    physical_row = (logical_row // 32) * 32 + (row_in_block % 4) * 8 + row_in_block // 4
    inverse = torch.zeros_like(physical_row)
    inverse[physical_row] = logical_row
    return physical_row, inverse


def run():
    physical_row, inverse = shuffle_rows(torch.randn(2, 64, 3))
    return bool((physical_row.sort().values == torch.arange(64)).all() and (physical_row[inverse] == torch.arange(64)).all())


if __name__ == "__main__":
    print(run())
"""
    assert codes(program) == []
    assert run(program) is True  # torch: a permutation, whose inverse every write fills once
    repeated = program.replace("+ (row_in_block % 4) * 8 + row_in_block // 4", "")
    assert codes(repeated) == ["GL013"]  # the quotients alone do repeat: 32 rows share each


def test_a_literal_tables_values_shared_across_rows_repeat_in_its_columns(torch):
    """Faces written out in the driver share vertices across rows: whatever the names, a column of them
    repeats, while one row of such a table (or one entry) names each value once."""
    program = MESH.replace("faces", "w2").replace("verts", "w1").replace("normals", "w3") + """

if __name__ == "__main__":
    print(run())
"""
    assert codes(program) == ["GL013"]
    one_row = """
import torch
pairs = torch.tensor([[0, 1, 2], [2, 0, 1]])
scores = torch.zeros(3, 3)
scores[pairs[0], pairs[1]] += torch.ones(3)
for k in range(3):
    scores[pairs[0, k], pairs[1, k]] += 1.0
"""
    assert codes(one_row) == []
    assert run_snippet(one_row)["scores"].sum().item() == 6.0  # torch: three distinct pairs, each written twice
