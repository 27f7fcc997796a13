"""Runtime mode: checks on real tensors, at the user's line, without changing any result."""
import subprocess
import sys
import textwrap
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, GatherLintWarning, checking, disable, enable  # noqa: E402

HERE = __file__


def test_unexpanded_gather_warns_at_this_line():
    features, idx = torch.randn(10, 128), torch.tensor([3, 1, 4])
    with checking():  # raise mode: a warning-severity finding is a warning, torch's result is kept
        with pytest.warns(GatherLintWarning) as caught:
            line = sys._getframe().f_lineno + 1
            out = torch.gather(features, 0, idx.unsqueeze(1))
    assert out.shape == (3, 1)
    w = caught[0]
    assert w.filename == HERE and w.lineno == line
    assert str(w.message).startswith("GL005") and "`.expand(-1, 128)`" in str(w.message)


def test_every_spelling_is_intercepted():
    x, idx = torch.randn(4, 6), torch.zeros(4, 1, dtype=torch.long)
    calls = [
        lambda: torch.gather(x, 0, idx),
        lambda: x.gather(0, idx),
        lambda: x.gather(dim=0, index=idx),
        lambda: torch.gather(input=x, dim=0, index=idx),
        lambda: torch.Tensor.gather(x, 0, idx),
    ]
    with checking():
        for call in calls:
            with pytest.warns(GatherLintWarning, match="GL005"):
                call()


def test_small_token_ids_along_the_sequence_dim_are_stopped():
    log_probs = torch.randn(2, 5, 50).log_softmax(-1)
    ids = torch.randint(5, (2, 5))  # small enough to fit dim -2: torch is silent
    torch.gather(log_probs, -2, ids.unsqueeze(-1))
    with checking(), pytest.warns(GatherLintWarning, match="GL005"):
        log_probs.gather(-2, ids.unsqueeze(-1))


def test_large_token_ids_along_the_sequence_dim_get_a_dim_hint():
    log_probs = torch.randn(2, 5, 50).log_softmax(-1).expand(2, 5, 50)
    ids = torch.full((2, 5, 50), 41)
    with checking(), pytest.raises(GatherLintError) as info:
        log_probs.gather(-2, ids)
    message = str(info.value)
    assert "GL011" in message and "first bad value 41 at index[0, 0, 0]" in message
    assert "values fit dim -1 (size 50): did you mean dim=-1?" in message


def test_padding_labels_report_the_first_bad_coordinate():
    log_probs = torch.randn(2, 4, 10).log_softmax(-1)
    labels = torch.tensor([[1, 2, 3, -100], [4, 5, -100, -100]])
    with checking(), pytest.raises(GatherLintError, match=r"first bad value -100 at index\[0, 3, 0\]"):
        log_probs.gather(-1, labels.unsqueeze(-1))


def test_scatter_add_with_a_column_index_is_stopped():
    x, seg = torch.randn(6, 3), torch.tensor([0, 0, 1, 2, 2, 2])
    with checking(), pytest.warns(GatherLintWarning, match="GL009"):
        torch.zeros(3, 3).scatter_add(0, seg.view(-1, 1), x)


def test_a_src_of_one_value_along_dim_passes_as_the_static_rule_does():
    # sparsemax's `p.scatter_add_(1, target[:, None], torch.full_like(p, -1))` subtracts 1 at each target: the
    # leading column of a constant src is what a [N, 1] src would give, and the result matches a loop
    p, target = torch.rand(4, 6), torch.tensor([1, 0, 5, 2])
    with checking(), warnings.catch_warnings():
        warnings.simplefilter("error", GatherLintWarning)
        out = p.clone().scatter_add_(1, target[:, None], torch.full_like(p, -1))
    expected = p.clone()
    for row, t in enumerate(target.tolist()):
        expected[row, t] -= 1
    assert torch.equal(out, expected)


def test_a_src_of_several_values_beside_a_column_index_still_warns():
    p, target = torch.rand(4, 6), torch.tensor([1, 0, 5, 2])
    src = torch.full_like(p, -1)
    src[:, 1] = 2.0  # a second value, in a column the [N, 1] index never reads
    with checking(), pytest.warns(GatherLintWarning, match="GL009"):
        p.clone().scatter_add_(1, target[:, None], src)


def test_in_place_ops_are_checked_before_any_write():
    t = torch.zeros(1, 5)
    bad = torch.tensor([[0, 1, 99]])
    with checking(), pytest.raises(GatherLintError, match="GL011"):
        t.scatter_(1, bad, 1.0)
    assert torch.equal(t, torch.zeros(1, 5))
    with pytest.raises(RuntimeError):
        t.scatter_(1, bad, 1.0)  # raw torch leaves a partial write behind
    assert t.sum() == 2


def test_take_along_dim_wraparound_is_reported():
    x = torch.randn(3, 4)
    idx = torch.tensor([[0], [5], [-1]])
    torch.take_along_dim(x, idx, dim=1)  # torch wraps silently
    with checking(), pytest.warns(GatherLintWarning, match="GL010"):
        torch.take_along_dim(x, idx, dim=1)


def test_embedding_out_of_range_names_both_sizes():
    emb = torch.nn.Embedding(4, 3)
    with checking(), pytest.raises(GatherLintError, match=r"ids span \[0, 4\] but the table has 4 rows"):
        emb(torch.tensor([0, 4]))


def test_index_select_padding_id():
    with checking(), pytest.raises(GatherLintError, match="GL011"):
        torch.randn(5, 2).index_select(0, torch.tensor([1, -1]))


def test_index_fill_accepts_negative_indices_like_torch():
    x = torch.zeros(2, 4)
    with checking():
        x.index_fill_(1, torch.tensor([-1]), 7.0)
    assert x[0, 3] == 7


@pytest.mark.parametrize("call", [lambda x: x.index_fill(1, torch.tensor([-5]), 7.0), lambda x: x[:, torch.tensor([-5])]])
def test_negative_positions_count_in_the_valid_range_it_names(call):
    x = torch.zeros(2, 4)
    with pytest.raises(IndexError):  # torch's own verdict: -5 is out of range, -4 would not be
        call(x)
    call(x.new_zeros(2, 5))
    with checking(), pytest.raises(GatherLintError, match=r"\(valid: \[-4, 3\]\)"):
        call(x)


def test_expanded_index_bounds_use_the_base():
    x = torch.randn(50, 16)
    base = torch.randint(50, (8, 1))
    idx = base.expand(-1, 16)
    with checking():
        out = x.gather(0, idx)
    assert torch.equal(out, x[base[:, 0]])
    with checking(), pytest.raises(GatherLintError, match="GL011"):
        x.gather(0, (base + 50).expand(-1, 16))


def test_empty_index_is_skipped_like_torch():
    with checking():
        assert torch.gather(torch.randn(3, 4), 1, torch.zeros(5, 0, dtype=torch.long)).shape == (5, 0)


def test_meta_tensors_get_shape_checks_only():
    x = torch.empty(10, 128, device="meta")
    idx = torch.empty(5, 1, dtype=torch.long, device="meta")
    with checking(), pytest.warns(GatherLintWarning, match="GL005"):
        x.gather(0, idx)
    with checking(), pytest.raises(GatherLintError, match="GL003"):
        x.gather(1, torch.empty(11, 1, dtype=torch.long, device="meta"))
    with checking():
        assert x.gather(1, idx).shape == (5, 1)


def test_results_and_gradients_are_unchanged():
    torch.manual_seed(0)
    x = torch.randn(4, 7, requires_grad=True)
    idx = torch.randint(7, (4, 3))
    w = torch.randn(4, 3)
    raw = x.gather(1, idx)
    (raw * w).sum().backward()
    raw_grad = x.grad.clone()
    x.grad = None
    with checking():
        checked = x.gather(1, idx)
        (checked * w).sum().backward()
    assert torch.equal(raw, checked) and torch.equal(raw_grad, x.grad)
    assert checked.dtype == raw.dtype and checked.stride() == raw.stride()


def test_no_grad_and_inference_mode():
    x, idx = torch.randn(3, 4), torch.zeros(3, 1, dtype=torch.long)
    with checking():
        with torch.no_grad():
            x.gather(1, idx)
        with torch.inference_mode():
            x.gather(1, idx)


def test_warn_mode_warns_once_per_call_site():
    x, idx = torch.randn(10, 8), torch.zeros(3, 1, dtype=torch.long)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        with checking("warn"):
            for _ in range(3):
                out = x.gather(0, idx)
    assert out.shape == (3, 1)
    assert [w.category for w in caught] == [GatherLintWarning]
    assert caught[0].filename == HERE  # the user's file, not gather-lint's


def test_enable_disable():
    x, idx = torch.randn(10, 8), torch.zeros(3, 1, dtype=torch.long)
    bad = torch.full((3, 8), 10)
    enable()
    try:
        with pytest.raises(GatherLintError):
            x.gather(0, bad)
    finally:
        disable()
    with pytest.raises(RuntimeError) as info:
        x.gather(0, bad)
    assert not isinstance(info.value, GatherLintError)


def test_decorator():
    @checking()
    def step(x, idx):
        return x.gather(0, idx)

    with pytest.raises(GatherLintError):
        step(torch.randn(10, 8), torch.full((3, 8), 10))


def test_default_level_gives_exact_coordinates_on_cpu():
    with checking(), pytest.raises(GatherLintError, match=r"first bad value 9 at index\[0, 0\]"):
        torch.randn(3, 4).gather(1, torch.tensor([[9], [0], [0]]))


def test_async_path_used_for_accelerators_asserts_on_the_device(monkeypatch):
    # the CUDA path, exercised on CPU: a non-CPU index at the async level goes through the device assert
    from gather_lint.runtime import checker

    monkeypatch.setattr(checker, "_on_accelerator", lambda t: True)
    with checking(level="async"), pytest.raises(RuntimeError, match="out of bounds") as info:  # torch's own error
        torch.randn(3, 4).gather(1, torch.tensor([[9], [0], [0]]))
    assert not isinstance(info.value, GatherLintError)  # no host sync for a verdict: the record explains torch's error
    assert "GL011" in info.value.__notes__[0] and "largest bad value 9 at index[0, 0]" in info.value.__notes__[0]
    with checking(level="sync"), pytest.raises(GatherLintError, match="first bad value 9"):
        torch.randn(3, 4).gather(1, torch.tensor([[9], [0], [0]]))


def test_checked_is_the_documented_name():
    from gather_lint.runtime import checked

    with checked(), pytest.raises(GatherLintError):
        torch.randn(10, 8).gather(0, torch.full((3, 8), 10))


@pytest.mark.parametrize("value,expect", [("raise", "GatherLintWarning"), ("raise", "GatherLintError"),
                                          ("warn", "GatherLintWarning"), ("off", "clean")])
def test_environment_variable(tmp_path, value, expect):
    script = tmp_path / "s.py"
    script.write_text("import warnings\nwarnings.simplefilter('always')\nimport torch, gather_lint.runtime\n"
                      "torch.randn(10, 8).gather(0, torch.zeros(3, 1, dtype=torch.long))\nprint('clean')\n"
                      "torch.randn(10, 8).gather(0, torch.full((3, 8), 10))\n")
    env = dict(__import__("os").environ, GATHER_LINT_RUNTIME=value)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert expect in out.stdout + out.stderr


def test_runner_keeps_main_argv_and_exit_code(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("import sys\nprint(__name__, sys.argv[1:])\nsys.exit(3)\n")
    out = subprocess.run([sys.executable, "-m", "gather_lint.runtime", str(script), "a", "--b"], capture_output=True, text=True)
    assert out.returncode == 3 and out.stdout.strip() == "__main__ ['a', '--b']"


def test_message_carries_the_distributed_rank(tmp_path):
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"file://{tmp_path}/store", rank=0, world_size=1)
    try:
        with checking(), pytest.raises(GatherLintError, match=r"rank 0\]"):
            torch.randn(10, 8).gather(0, torch.full((3, 8), 10))
    finally:
        dist.destroy_process_group()


def test_fake_tensors_get_shape_checks_only():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(10, 8)
        bad = torch.empty(3, 1, dtype=torch.long)
        with checking(), pytest.warns(GatherLintWarning, match="GL005"):
            x.gather(0, bad)
        with checking():
            assert x.gather(1, bad).shape == (3, 1)


def test_runner_stops_at_the_script_line_and_leaves_good_scripts_alone(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\nf = torch.randn(10, 128)\ni = torch.tensor([1, 2])\n"
                   "print(torch.gather(f, 0, i.unsqueeze(1) + 10).shape)\n")
    good = tmp_path / "good.py"
    good.write_text("import torch\ntorch.manual_seed(0)\nf = torch.randn(10, 128)\ni = torch.tensor([1, 2])\n"
                    "print(torch.gather(f, 0, i.unsqueeze(1).expand(-1, 128)).sum().item())\n")
    out = subprocess.run([sys.executable, "-m", "gather_lint.runtime", str(bad)], capture_output=True, text=True)
    assert out.returncode != 0 and f"{bad}:4 in <module>" in out.stderr and "GL011" in out.stderr
    plain = subprocess.run([sys.executable, str(good)], capture_output=True, text=True)
    checked = subprocess.run([sys.executable, "-m", "gather_lint.runtime", str(good)], capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout == plain.stdout


def test_pytest_option_reports_a_silent_bug_and_fails_with_w_error(tmp_path):
    (tmp_path / "test_model.py").write_text(textwrap.dedent("""\
        import torch

        def test_rows():
            feats = torch.randn(10, 128)
            rows = feats.gather(0, torch.tensor([[1], [2]]))  # GL005: torch runs it, a warning
            assert rows.shape[0] == 2
    """))
    base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    as_error = ["-W", "error::gather_lint.runtime.GatherLintWarning"]
    plain = subprocess.run(base + [str(tmp_path)], capture_output=True, text=True)
    assert plain.returncode == 0
    checked = subprocess.run(base + ["--gather-lint-runtime", str(tmp_path)], capture_output=True, text=True)
    assert checked.returncode == 0 and "GatherLintWarning: GL005" in checked.stdout and "test_model.py:5" in checked.stdout
    strict = subprocess.run(base + as_error + ["--gather-lint-runtime", str(tmp_path)], capture_output=True, text=True)
    assert strict.returncode == 1 and "GL005" in strict.stdout and "test_model.py:5" in strict.stdout
    warned = subprocess.run(base + ["--gather-lint-runtime=warn", str(tmp_path)], capture_output=True, text=True)
    assert warned.returncode == 0 and "GatherLintWarning" in warned.stdout
    swallowing = subprocess.run(base + as_error + ["--gather-lint-runtime", str(tmp_path / "test_model.py")],
                                capture_output=True, text=True, cwd=tmp_path.parent)
    assert swallowing.returncode == 1 and "1 failed" in swallowing.stdout  # the path after the option is still run


def test_pytest_option_fails_a_test_torch_would_fail_with_torch_type(tmp_path):
    (tmp_path / "test_model.py").write_text(textwrap.dedent("""\
        import torch

        def test_rows():
            torch.randn(10, 128).index_select(0, torch.tensor([10]))
    """))
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--gather-lint-runtime",
                          str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 1 and "GatherLintIndexError: GL011" in out.stdout and "index out of range in self" in out.stdout
    assert "test_model.py:4: GatherLintIndexError" in out.stdout  # the failure points at the test's line
    assert "reporting.py" not in out.stdout and "mode.py" not in out.stdout  # library frames hidden


def test_non_target_calls_pass_through():
    with checking():
        y = torch.ones(2, 3) + 1
        z = y[:, 0].clone()
    assert z.tolist() == [2.0, 2.0]
