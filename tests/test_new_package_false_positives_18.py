"""False findings of the eighteenth set of packages never linted before (benchmarks/README.md, "Eighteenth set"),
each as a small program in the style of the package's code: torch runs it as the package does, and the linter stays
silent. Beside each, the mistake the rule is for, still reported and shown wrong in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

# A categorical DQN scales the target network's atom probabilities by the support: the network's output keeps its
# [batch, actions, atoms] rank, whatever `support` [atoms] has.
C51 = """
import torch
from torch import nn

def projected_next_dist(target_model: nn.Module, next_state, v_min=-10.0, v_max=10.0, num_atoms: int = 51):
    support = torch.linspace(v_min, v_max, num_atoms)
    next_dist = DIST
    next_action = next_dist.sum(2).max(1)[1]
    next_action = next_action.unsqueeze(1).unsqueeze(1).expand(next_dist.size(0), 1, next_dist.size(2))
    return next_dist.gather(1, next_action).squeeze(1)

class Net(nn.Module):
    def __init__(self, actions=3, atoms=51):
        super().__init__()
        self.actions, self.atoms = actions, atoms
        self.body = nn.Linear(4, actions * atoms)

    def forward(self, x):
        return self.body(x).view(-1, self.actions, self.atoms).softmax(-1)

if __name__ == "__main__":
    torch.manual_seed(0)
    OUT = projected_next_dist(Net(), torch.randn(8, 4))
"""


def test_a_tensor_of_unknown_rank_times_a_vector_keeps_its_rank(torch):
    code = C51.replace("DIST", "target_model(next_state).detach() * support")
    assert run_snippet(code)["OUT"].shape == (8, 51)
    assert codes(code) == []


def test_a_vector_times_a_number_is_still_a_vector(torch):
    code = C51.replace("DIST", "support * 2.0")
    with pytest.raises(IndexError, match="Dimension out of range"):
        run_snippet(code)  # sum(2) of a 1-d tensor
    assert "GL002" in codes(code) or "GL001" in codes(code)


# Per-state energy offsets summed per structure, stacked, then one state picked per structure; the arrow comment
# describes the stack and the pick together.
OFFSETS = """
import torch

def per_structure_offset(property_offset, node_type, batch, state_index):
    size = int(batch.max()) + 1
    one_hot = torch.eye(property_offset.size(1))[node_type]
    offsets = []
    for i in range(property_offset.size(0)):
        per_atom = (property_offset[i] * one_hot).sum(1)
        offsets.append(torch.zeros(size).index_add(0, batch, per_atom))
    # (n_states, B) -> (B,): each structure reads the row its own state selects
    stacked = STACK
    return stacked[state_index, torch.arange(size)]

if __name__ == "__main__":
    OUT = per_structure_offset(torch.rand(3, 89), torch.tensor([1, 6, 8, 1]), torch.tensor([0, 0, 1, 2]),
                               torch.tensor([0, 2, 1]))
"""


def test_an_arrow_comment_that_lowers_the_rank_of_a_stack_is_no_fact_for_it(torch):
    code = OFFSETS.replace("STACK", "torch.stack(offsets)")
    assert run_snippet(code)["OUT"].shape == (3,)
    assert codes(code) == []


def test_an_arrow_comment_over_a_reduction_still_gives_its_result(torch):
    code = OFFSETS.replace("STACK", "torch.stack(offsets).sum(0)")
    with pytest.raises(IndexError, match="too many indices"):
        run_snippet(code)
    assert "GL001" in codes(code)


# Face keypoints converted from 98 to 68 points; the trailing `# [0]` is an index the author commented out.
KEYPOINTS = """
import torch

def landmark_98_to_68(points):
    return points[:68].clone()

def extract_keypoint(detector, image, left, top):
    keypoints = landmark_98_to_68(detector(image))  # COMMENT
    keypoints[:, 0] += left
    keypoints[:, 1] += top
    return keypoints

if __name__ == "__main__":
    OUT = extract_keypoint(lambda image: torch.rand(98, 2), None, 10, 20)
"""


def test_a_commented_out_index_is_no_shape(torch):
    code = KEYPOINTS.replace("COMMENT", "[0]")
    assert run_snippet(code)["OUT"].shape == (68, 2)
    assert codes(code) == []


def test_a_one_dim_comment_still_decides_against_one_read(torch):
    code = KEYPOINTS.replace("COMMENT", "[68]").replace("    keypoints[:, 1] += top\n", "")
    with pytest.raises(IndexError, match="too many indices"):
        torch.rand(68)[:, 0]
    assert "GL001" in codes(code)


def test_a_one_dim_comment_two_reads_index_past_is_outvoted(torch):
    """Both statements read a column: the code agrees with itself against the comment (and runs on its driver's
    [98, 2] points), so the comment is the stale one."""
    code = KEYPOINTS.replace("COMMENT", "[68]")
    assert run_snippet(code)["OUT"].shape == (68, 2)
    assert codes(code) == []


# A pose head documents its joints as `(BxNum_jointsx3)`, the sizes joined by an x.
UVD = '''
import torch

def uvd_to_image(uvd_jts, width_dim=64):
    """Project uvd coordinates to the image frame.

    Args:
        uvd_jts (torch.Tensor):
            uvd coordinates with shape (BxNum_jointsx3)
    """
    uvd_new = uvd_jts.clone()
    uvd_new[:, :, 0] = (uvd_jts[:, :, 0] + 0.5) * width_dim * 4
    return torch.cat((uvd_new[:, :, :2], torch.ones_like(uvd_new)[PICK]), dim=2)

if __name__ == "__main__":
    OUT = uvd_to_image(torch.rand(2, 29, 3))
'''


def test_sizes_joined_by_x_are_dims(torch):
    code = UVD.replace("PICK", ":, :, 2:")
    assert run_snippet(code)["OUT"].shape == (2, 29, 3)
    assert codes(code) == []


def test_sizes_joined_by_x_decide_as_dims(torch):
    code = UVD.replace("PICK", ":, :, :, 2:")
    with pytest.raises(IndexError, match="too many indices"):
        run_snippet(code)
    assert "GL001" in codes(code)
