"""Interception by patching: only the family pays, names bound early are reached, and torch's
transforms (vmap, compile with dynamic shapes, jit.trace) keep working under the checks."""
import subprocess
import sys
import textwrap
import types
import warnings

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, GatherLintWarning, checked, disable, enable  # noqa: E402


def test_everything_is_put_back_exactly():
    before = {name: torch.Tensor.__dict__.get(name) for name in ("__getitem__", "__setitem__", "gather", "__mul__")}
    gather, embedding = torch.gather, torch.nn.functional.embedding
    with checked():
        assert torch.gather is not gather
        torch.randn(3, 4).gather(1, torch.zeros(3, 1, dtype=torch.long)).squeeze(1) * torch.randn(3)
    assert torch.gather is gather and torch.nn.functional.embedding is embedding
    assert {name: torch.Tensor.__dict__.get(name) for name in before} == before


def test_names_bound_before_enabling_are_checked():
    module = types.ModuleType("user_model")
    exec("from torch import gather\nfrom torch.nn.functional import embedding\n"
         "def rows(x, i):\n    return gather(x, 0, i)\n", module.__dict__)
    sys.modules["user_model"] = module
    try:
        bad = (torch.randn(10, 8), torch.zeros(3, 1, dtype=torch.long))
        module.rows(*bad)  # torch: silent
        with checked(), pytest.warns(GatherLintWarning, match="GL005"):
            module.rows(*bad)
        assert module.gather is torch.gather  # put back afterwards
    finally:
        del sys.modules["user_model"]


def test_a_module_imported_between_check_blocks_is_rebound_in_the_next_and_builtins_are_not_scanned():
    with checked():
        pass  # the modules loaded so far are classified (the next block scans only new names)
    module = types.ModuleType("user_model_late")
    exec("from torch import gather\ndef rows(x, i):\n    return gather(x, 0, i)\n", module.__dict__)
    sys.modules["user_model_late"] = module
    try:
        with checked(), pytest.warns(GatherLintWarning, match="GL005"):
            module.rows(torch.randn(10, 8), torch.zeros(3, 1, dtype=torch.long))
        assert module.gather is torch.gather
    finally:
        del sys.modules["user_model_late"]
    from gather_lint.runtime import interception
    assert interception._user_module.get("posix") is False and "posix" in interception._not_user
    assert interception._user_module.get("user_model_late") is True


def test_nested_and_enable_disable_share_one_installation():
    gather = torch.gather
    with checked():
        with checked("warn"):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                torch.randn(10, 8).gather(0, torch.zeros(3, 1, dtype=torch.long))
            assert len(caught) == 1  # the innermost reporter, once
        with pytest.warns(GatherLintWarning):
            torch.randn(10, 8).gather(0, torch.zeros(3, 1, dtype=torch.long))
    enable()
    disable()
    assert torch.gather is gather


def test_vmap_over_a_checked_gather():
    x, idx = torch.randn(4, 5, 6), torch.randint(6, (4, 5, 2))
    expected = torch.vmap(lambda a, i: a.gather(1, i))(x, idx)
    table = torch.randn(6, 3)
    with checked():
        got = torch.vmap(lambda a, i: a.gather(1, i))(x, idx)
        emb = torch.vmap(lambda ids: torch.nn.functional.embedding(ids, table))(idx)
        rows = torch.vmap(lambda a, i: a[i])(x, idx[..., 0] % 5)
    assert torch.equal(got, expected) and emb.shape == (4, 5, 2, 3) and rows.shape == (4, 5, 6)


def test_compile_with_dynamic_shapes_does_not_recompile_per_shape():
    import torch._dynamo

    torch._dynamo.reset()
    frames = []

    def backend(gm, example_inputs):
        frames.append(gm)
        return gm.forward

    @torch.compile(backend=backend, dynamic=True)
    def pick(x, i):
        return x.gather(1, i) * 2

    with checked():
        for n in (5, 7, 9, 11):
            x = torch.randn(n, n + 3)
            i = torch.randint(n + 3, (n, 3))
            assert torch.equal(pick(x, i), x.gather(1, i) * 2)
    assert len(frames) == 1


def test_jit_trace_prints_no_tracer_warnings():
    def fn(x, i):
        return x.gather(1, i) + x[i[:, 0]].sum()

    x, i = torch.randn(4, 6), torch.randint(4, (4, 2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with checked():
            traced = torch.jit.trace(fn, (x, i))
    assert [str(w.message) for w in caught if issubclass(w.category, torch.jit.TracerWarning)] == []
    assert torch.equal(traced(x, i), fn(x, i))


def test_runner_checks_names_the_script_imports_from_torch(tmp_path):
    script = tmp_path / "s.py"
    script.write_text(textwrap.dedent("""\
        import torch
        from torch import gather
        print(gather(torch.randn(10, 8), 0, torch.zeros(3, 1, dtype=torch.long)).shape)
    """))
    out = subprocess.run([sys.executable, "-m", "gather_lint.runtime", str(script)], capture_output=True, text=True)
    # GL005 is silently wrong, not rejected by torch: a warning at the script's line, the script goes on
    assert out.returncode == 0 and "GL005" in out.stderr and f"{script}:3" in out.stderr


def test_environment_switch_reaches_names_the_script_bound_first(tmp_path):
    script = tmp_path / "s.py"
    script.write_text(textwrap.dedent("""\
        import torch
        from torch import gather
        import gather_lint.runtime
        print(gather(torch.randn(10, 8), 0, torch.zeros(3, 1, dtype=torch.long)).shape)
    """))
    env = dict(__import__("os").environ, GATHER_LINT_RUNTIME="raise")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and "GL005" in out.stderr and f"{script}:4" in out.stderr
