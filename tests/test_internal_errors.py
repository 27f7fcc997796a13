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
