"""Three false findings on research code, each from a reading fact the analysis got wrong:

- a file that writes shape comments below the statements they describe (`x = ...` then `# shape = (B, N)`):
  a comment line between two statements is the earlier one's, not the later one's;
- `# batch x length x self.num_labels x indices` is no [batch, length, self]: a dotted name ends no run;
- a notebook cell whose first line is indented runs in IPython (its leading-indent transform strips it).

Each snippet runs in torch as written; a control in the other style is still read."""
import json

import pytest

from .conftest import lint
from .snippets import run_snippet

BELOW_STATE = """
import numpy as np
import torch

PROBLEM_SIZE = 100


class RouteState:
    def __init__(self, batch_s):
        self.batch_s = batch_s
        self.loaded = torch.Tensor(np.ones((batch_s,)))
        # shape = (batch,)
        self.visited_ninf_flag = torch.Tensor(np.zeros((batch_s, PROBLEM_SIZE + 1)))
        # shape = (batch, problem+1)

    def move_to(self, selected_node_idx):
        at_the_depot = selected_node_idx == 0
        self.visited_ninf_flag[torch.arange(self.batch_s), selected_node_idx] = -np.inf
        self.visited_ninf_flag[:, 0][~at_the_depot] = 0


state = RouteState(batch_s=64)
state.move_to(torch.randint(0, PROBLEM_SIZE + 1, (64,)))
assert state.visited_ninf_flag.shape == (64, 101)
"""

BELOW_ENV = """
import torch


class RouteEnv:
    def __init__(self, depot_xy, node_xy, node_demand):
        batch_s = depot_xy.size(0)
        all_node_xy = torch.cat((depot_xy, node_xy), dim=1)
        # shape = (batch, problem+1, 2)
        depot_demand = torch.zeros(batch_s, 1, 1)
        all_node_demand = torch.cat((depot_demand, node_demand), dim=1)
        # shape = (batch, problem+1, 1)
        self.data = torch.cat((all_node_xy, all_node_demand), dim=2)
        # shape = (batch, problem+1, 3)

    def tour_length(self, selected_node_list):
        all_node_xy = self.data[:, :, 0:2]
        gathering_index = selected_node_list.unsqueeze(2).expand(-1, -1, 2)
        ordered_seq = all_node_xy.gather(dim=1, index=gathering_index)
        rolled_seq = ordered_seq.roll(dims=1, shifts=-1)
        return ((ordered_seq - rolled_seq) ** 2).sum(2).sqrt().sum(1)


env = RouteEnv(torch.rand(64, 1, 2), torch.rand(64, 100, 2), torch.rand(64, 100, 1))
assert env.tour_length(torch.randint(0, 101, (64, 120))).shape == (64,)
"""

ABOVE_STYLE = """
import torch


def pick(scores, labels):
    # [B]
    labels = labels.view(-1)
    return scores.gather(1, labels)


pick(torch.randn(4, 10), torch.randint(0, 10, (4, 1)))
"""

DOTTED_RUN = """
import torch


def last_backpointers(argmax_idxs, word_seq_lens, start_idx):
    batch_size, padded_length, _, label_size, _, _ = argmax_idxs.shape
    final_argmax_indices = argmax_idxs[
        :, :, 0, start_idx, :, :
    ]  # batch_size x padded_length x self.to_label_size x indices
    final_argmax_indices = torch.gather(
        final_argmax_indices,
        1,
        word_seq_lens.view(batch_size, 1, 1, 1).expand(batch_size, 1, label_size, padded_length) - 1,
    ).squeeze(1)
    return final_argmax_indices


argmax_idxs = torch.zeros(5, 64, 7, 8, 8, 64, dtype=torch.long)
assert last_backpointers(argmax_idxs, torch.tensor([37, 20, 5, 33, 1]), start_idx=6).shape == (5, 8, 64)
"""


@pytest.mark.parametrize("code", [BELOW_STATE, BELOW_ENV], ids=["index", "gather"])
def test_a_file_writing_shape_comments_below_gives_none_to_the_next_statement(code):
    assert lint(code) == []
    run_snippet(code)


def test_a_comment_above_still_describes_the_next_statement():
    assert [(f.line, f.code) for f in lint(ABOVE_STYLE)] == [(8, "GL001")]
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run_snippet(ABOVE_STYLE)


def test_a_dotted_name_ends_no_by_x_run():
    from gather_lint.static.shape_text import parse_comment

    assert parse_comment("# batch_size x padded_length x self.to_label_size x indices", "x") is None
    assert str(parse_comment("# B x T x D.", "x")) == "[B, T, D]"
    assert lint(DOTTED_RUN) == []
    run_snippet(DOTTED_RUN)


def _notebook(tmp_path, *cells):
    data = {"cells": [{"cell_type": "code", "execution_count": i, "metadata": {}, "outputs": [],
                       "source": c} for i, c in enumerate(cells, 1)],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(data))
    return path


FIRST = "import torch\nscores = torch.randn(4, 10)\nlabels = torch.randint(10, (4,))\n"


def test_a_cell_with_an_indented_first_line_is_read_as_ipython_runs_it(tmp_path):
    from gather_lint.api import lint_file

    right = _notebook(tmp_path, FIRST, " picked = scores.gather(1, labels[:, None]).squeeze(1)  ")
    assert lint_file(str(right)).findings == []
    wrong = _notebook(tmp_path, FIRST, "  picked = scores.gather(1, labels)  \n  print(picked.shape)")
    found = lint_file(str(wrong)).findings
    assert [(f.path.rsplit(":", 1)[-1], f.line, f.column, f.code) for f in found] == [("cell 2", 1, 19, "GL001")]
    assert found[0].fix is None  # the cell is read dedented: no edit is placed in it
    scope: dict = {}
    exec(FIRST, scope)
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        exec("picked = scores.gather(1, labels)", scope)


def test_a_shell_command_inside_a_block_is_read_as_ipython_runs_it(tmp_path):
    from gather_lint.api import lint_file

    cell = ("import os\n"
            "def download_assets():\n"
            "  if not os.path.exists('/content/optimal.yaml'):\n"
            "    !wget -P /content https://example.org/optimal.yaml\n"
            "\n"
            "labels = torch.randint(10, (4,))\n"
            "picked = scores.gather(1, labels)\n")
    found = lint_file(str(_notebook(tmp_path, FIRST, cell))).findings
    # the block parses (no GL000), and the rest of the cell is still checked
    assert [(f.path.rsplit(":", 1)[-1], f.line, f.code) for f in found] == [("cell 2", 7, "GL001")]


def test_a_shell_command_continued_by_a_backslash_is_read_as_ipython_runs_it(tmp_path):
    """`%shell wget -q -P /content \\` with the URL on the next, further indented line: IPython joins the two,
    so the URL line is part of the command, not an indented Python line."""
    from gather_lint.api import lint_file
    from gather_lint.notebook_fixes import _hide_magics

    cell = ("try:\n"
            "    %shell wget -q -P /content \\\n"
            "      https://example.org/stereo_chemical_props.txt\n"
            "    %shell mkdir -p /content/resources\n"
            "except OSError:\n"
            "    pass\n"
            "labels = torch.randint(10, (4,))\n"
            "picked = scores.gather(1, labels)\n")
    found = lint_file(str(_notebook(tmp_path, FIRST, cell))).findings
    assert [(f.path.rsplit(":", 1)[-1], f.line, f.code) for f in found] == [("cell 2", 8, "GL001")]
    hidden = _hide_magics(cell).split("\n")
    assert hidden[2] == "      #gather-lint-magic:https://example.org/stereo_chemical_props.txt"


NAMED_SUBJECT = """
import torch

def step(kv_pair, start):
    #   shape(new_att_cache) is (B, head, attention_key_size, d_k * 2),
    #   shape(new_cnn_cache) is (B, hidden-dim, cache_t2)
    new_att_cache = torch.cat(kv_pair, dim=-1)
    return new_att_cache[:, :, start:, :].unsqueeze(1)

if __name__ == "__main__":
    OUT = step((torch.randn(2, 4, 6, 8), torch.randn(2, 4, 6, 8)), 3)
"""


def test_a_shape_said_of_a_named_subject_belongs_to_that_name():
    """`shape(new_cnn_cache) is (...)` above `new_att_cache = ...` describes another tensor; the name in its
    parentheses is no 1-d shape of the assigned one (which is 4-d here: no 'too many indices')."""
    from gather_lint.static.shape_text import parse_comment

    assert lint(NAMED_SUBJECT) == []
    assert tuple(run_snippet(NAMED_SUBJECT)["OUT"].shape) == (2, 1, 4, 3, 16)
    assert str(parse_comment("# shape(new_cnn_cache) is (B, D, T)", "new_cnn_cache")) == "[B, D, T]"
    assert parse_comment("# shape(new_cnn_cache) is (B, D, T)", "new_att_cache", above=True) is None
    assert str(parse_comment("# h.shape = [B, D]", "h")) == "[B, D]"
    assert str(parse_comment("# shape of h: (B, D)", "h")) == "[B, D]"


def test_a_cell_magic_after_colab_form_lines_is_not_read_as_python(tmp_path):
    """Colab sends a form cell (`#@title ...`, `#@markdown ...`) without its form lines, so `%%bash` below them
    is the cell magic the kernel runs: the bash body is no Python. Below a line of code it is no cell magic."""
    from gather_lint.api import lint_file

    form = "#@title Install\n#@markdown Fetches the weights.\n%%bash\nif [ ! -f READY ]; then\n    touch READY\nfi\n"
    wrong = "labels = torch.randint(10, (4,))\npicked = scores.gather(1, labels)\n"
    found = lint_file(str(_notebook(tmp_path, FIRST, form, wrong))).findings
    assert [(f.path.rsplit(":", 1)[-1], f.line, f.code) for f in found] == [("cell 3", 2, "GL001")]
    below_code = form.replace("#@markdown Fetches the weights.", "x = 1")  # a magic below code is no cell magic
    found = lint_file(str(_notebook(tmp_path, FIRST, below_code, wrong))).findings
    assert "GL000" in [f.code for f in found]
