"""`x.new_zeros(sizes)` is a fresh tensor of those sizes whatever `x` is: a buffer the function fills, even
when nothing is known of the tensor it was made from (a custom backward's `grad_out`)."""
from .conftest import codes
from .snippets import call_run as run

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
