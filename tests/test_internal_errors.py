"""An analysis fault on one file is reported on that file and the run goes on: the other files are
still linted, the run exits nonzero, and no traceback reaches the user."""
from gather_lint import api
from gather_lint.cli import main

BUG = "import torch\nq = torch.randn(4, 3)\npicked = q.gather(1, torch.tensor([0, 1, 2, 0]))\n"


def test_a_fault_on_one_file_is_reported_there_and_the_others_are_linted(tmp_path, monkeypatch, capsys):
    (tmp_path / "a_faulty.py").write_text("x = 1\n")
    (tmp_path / "b_bug.py").write_text(BUG)
    real = api.lint_text

    def faulty_on_one(text, path, *args, **kwargs):
        if path.endswith("a_faulty.py"):
            raise KeyError("boom")
        return real(text, path, *args, **kwargs)

    monkeypatch.setattr(api, "lint_text", faulty_on_one)
    status = main(["--no-cache", "--isolated", "--jobs", "1", str(tmp_path)])
    out = capsys.readouterr()
    assert status == 1
    assert "a_faulty.py:1:1: GL000 internal error while analysing this file (KeyError: 'boom')" in out.out
    assert "b_bug.py:3" in out.out  # the other file's finding is still there
    assert "Traceback" not in out.out + out.err


def test_a_write_through_an_empty_tuple_key_is_no_internal_error():
    # tensordict's persistent store: `node[()] = value` writes a whole 0-d dataset, in a function that also
    # writes sliced blocks (the row-cut check reads every subscript write there); the driver makes node a tensor
    code = (
        "import numpy as np\n"
        "import torch\n"
        "def write_full(node, value, rows):\n"
        "    if not node.shape:\n"
        "        node[()] = value\n"
        "        return\n"
        "    block = np.full((rows, *node.shape[1:]), value)\n"
        "    for start in range(0, node.shape[0], rows):\n"
        "        node[start:start + rows] = block[: node.shape[0] - start]\n"
        "def lookup(table, ids):\n"
        "    return torch.gather(table, 0, ids)\n"
        "if __name__ == '__main__':\n"
        "    write_full(torch.zeros(()), 1.0, 4)\n"
    )
    assert [f.code for f in api.lint_text(code, "x.py").findings] == []
