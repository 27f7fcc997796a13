"""Checked calls on the actual device. Each table row runs on CPU here and on CUDA where there is one:
the checked result equals raw torch's, and on CUDA a valid call never waits for the device (the
default level reads no value back). The CUDA rows skip without CUDA; a device-side assert ends the
CUDA context for good, so the tests that trigger one run in their own process."""
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

from gather_lint.runtime import GatherLintError, checked  # noqa: E402

HAS_CUDA = torch.cuda.is_available()
cuda = pytest.mark.skipif(not HAS_CUDA, reason="needs CUDA")
DEVICES = ["cpu", pytest.param("cuda", marks=cuda)]


def _inputs(device):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(6, 8, generator=g)
    rows = torch.stack([torch.randperm(8, generator=g)[:3] for _ in range(6)])  # distinct per row: one writer each
    ids = torch.tensor([5, 0, 5, 2])
    distinct = torch.tensor([4, 1, 3])
    table = torch.randn(10, 4, generator=g)
    return {k: v.to(device) for k, v in dict(x=x, rows=rows, ids=ids, distinct=distinct, table=table).items()}


# name -> call on the inputs; every call is valid. Writes run on clones so raw and checked see the same data.
CALLS = {
    "Tensor.gather": lambda t: t["x"].gather(1, t["rows"]),
    "torch.gather (expanded index)": lambda t: torch.gather(t["x"], 0, t["ids"].unsqueeze(1).expand(-1, 8)),
    "gather of topk positions": lambda t: t["x"].gather(1, t["x"].topk(3, dim=1).indices),
    "scatter": lambda t: t["x"].scatter(1, t["rows"], torch.ones_like(t["rows"], dtype=t["x"].dtype)),
    "scatter_add_": lambda t: t["x"].clone().scatter_add_(1, t["rows"], torch.ones(6, 3, device=t["x"].device)),
    "scatter_reduce amax": lambda t: t["x"].scatter_reduce(1, t["rows"], t["x"][:, :3], "amax", include_self=False),
    "index_select": lambda t: t["x"].index_select(0, t["ids"]),
    "index_add_": lambda t: t["x"].clone().index_add_(0, t["ids"], torch.ones(4, 8, device=t["x"].device)),
    "index_copy_": lambda t: t["x"].clone().index_copy_(0, t["distinct"], t["x"][:3]),
    "index_fill (negative position)": lambda t: t["x"].index_fill(1, torch.tensor([-1, 0], device=t["x"].device), 0.5),
    "take_along_dim with dim": lambda t: torch.take_along_dim(t["x"], t["rows"], dim=1),
    "take_along_dim flat": lambda t: torch.take_along_dim(t["x"], t["ids"]),
    "F.embedding": lambda t: F.embedding(t["ids"], t["table"]),
    "x[ids]": lambda t: t["x"][t["ids"]],
    "x[:, ids]": lambda t: t["x"][:, t["ids"]],
    "x[distinct] = v": lambda t: _setitem(t["x"].clone(), t["distinct"], 1.0),
    "index_put_ accumulate": lambda t: t["x"].clone().index_put_((t["ids"],), torch.ones(8, device=t["x"].device),
                                                                 accumulate=True),
}


def _setitem(x, key, value):
    x[key] = value
    return x


def _no_sync_allowed(device):
    """On CUDA, any host sync inside raises (torch's sync debug mode); nothing on CPU."""
    class _Mode:
        def __enter__(self):
            if device == "cuda":
                torch.cuda.synchronize()
                torch.cuda.set_sync_debug_mode("error")

        def __exit__(self, *exc):
            if device == "cuda":
                torch.cuda.set_sync_debug_mode(0)

    return _Mode()


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", list(CALLS))
def test_checked_call_matches_raw_torch_and_never_waits_for_the_device(device, name):
    call, inputs = CALLS[name], _inputs(device)
    raw = call(inputs)
    try:
        with _no_sync_allowed(device):
            call(inputs)
    except RuntimeError:  # torch itself waits here: only the result is compared
        waits = True
    else:
        waits = False
    with checked():
        if waits:
            out = [call(inputs) for _ in range(3)]
        else:
            with _no_sync_allowed(device):
                out = [call(inputs) for _ in range(3)]  # first call, then the cached verdicts
    for o in out:
        assert o.device == raw.device and o.dtype == raw.dtype and torch.equal(o, raw), name


@pytest.mark.parametrize("device", DEVICES)
def test_shape_mistake_raises_before_any_kernel_runs(device):
    x = torch.randn(6, 8, device=device)
    with checked(), pytest.raises(GatherLintError, match="GL001"):
        x.gather(1, torch.zeros(6, dtype=torch.long, device=device))
    assert x.gather(1, torch.zeros(6, 1, dtype=torch.long, device=device)).shape == (6, 1)  # the device still works
    if device == "cuda":
        torch.cuda.synchronize()


@cuda
def test_sync_level_names_the_coordinate_and_launches_nothing_bad():
    x = torch.randn(4, 8, device="cuda")
    idx = torch.tensor([[0], [1], [11], [2]], device="cuda")
    with checked(level="sync"), pytest.raises(GatherLintError, match=r"first bad value 11 at index\[2, 0\]"):
        x.gather(1, idx)
    torch.cuda.synchronize()  # no device-side assert fired: the context is still usable
    assert x.gather(1, idx.clamp(max=7)).shape == (4, 1)


@cuda
def test_index_on_another_device_is_gl012():
    x = torch.randn(4, 8, device="cuda")
    with checked(), pytest.raises(RuntimeError) as info:
        x.gather(1, torch.zeros(4, 1, dtype=torch.long))
    assert "GL012" in str(info.value) + "".join(getattr(info.value, "__notes__", []))


@cuda
def test_compiled_function_with_in_graph_checks_matches_eager():
    x = torch.randn(6, 8, device="cuda")
    idx = torch.randint(8, (6, 3), device="cuda")
    fn = torch.compile(lambda a, i: a.gather(1, i) * 2, fullgraph=False)
    with checked():
        out = fn(x, idx)
    assert torch.equal(out, x.gather(1, idx) * 2)


BAD_CALLS = {  # one out-of-range value each, at line 4 of the script: (setup, faulty line, expected record)
    "scatter_add_": ("x = torch.zeros(4, 8, device='cuda'); idx = torch.tensor([[0], [1], [11], [2]], device='cuda')",
                     "x.scatter_add_(1, idx, torch.ones(4, 1, device='cuda'))", "largest bad value 11 at index[2, 0]"),
    "index_select": ("x = torch.randn(4, 8, device='cuda'); idx = torch.tensor([0, 3, 9], device='cuda')",
                     "y = x.index_select(0, idx)", "largest bad value 9 at index[2]"),
    "embedding": ("table = torch.nn.Embedding(10, 4).cuda(); ids = torch.tensor([[1, 10]], device='cuda')",
                  "y = table(ids)", "largest bad value 10 at index[0, 1]"),
    "take_along_dim": ("x = torch.randn(4, 8, device='cuda'); idx = torch.tensor([[1], [8], [0], [0]], device='cuda')",
                       "y = torch.take_along_dim(x, idx, dim=1)", "largest bad value 8 at index[1, 0]"),
}


@cuda
@pytest.mark.parametrize("then", ["sync", "next checked call"])
@pytest.mark.parametrize("name", list(BAD_CALLS))
def test_device_assert_names_the_line_and_coordinate(tmp_path, name, then):
    setup, faulty, expected = BAD_CALLS[name]
    follow = ("torch.cuda.synchronize()" if then == "sync"
              else "z = torch.randn(2, 2, device='cuda').gather(1, torch.zeros(2, 1, dtype=torch.long, device='cuda'))")
    script = tmp_path / "bad.py"
    script.write_text(textwrap.dedent(f"""\
        import torch
        {setup}
        print('start')
        {faulty}
        {follow}
        torch.cuda.synchronize()
    """))
    out = subprocess.run([sys.executable, "-m", "gather_lint.runtime", str(script)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode != 0, out.stdout
    assert f"{script}:4" in out.stderr and expected in out.stderr, out.stderr[-2000:]
