"""GL033 in the static half: calls torch's parser refuses, whatever way the program is written, and silence
where the callee or an argument's kind is not certain. Each flagged program is run in torch, which must raise
TypeError at that call; each silent program that is runnable must run."""
import textwrap

import pytest

from .conftest import codes, lint

FLAGGED = {
    # the dim left out of a one-hot written by scatter_ (an mmdet3d direction target): the index goes where the
    # dim does, and 1.0 where the index does
    "scatter_ without its dim": """
        import torch
        labels = torch.tensor([1, 0, 1])
        targets = torch.zeros(3, 2)
        targets.scatter_(labels.unsqueeze(dim=-1).long(), 1.0)
    """,
    "source keyword, method on a product of known tensors": """
        import torch
        gen = torch.rand(2, 5)
        gate = torch.sigmoid(torch.randn(2, 1))
        ids = torch.tensor([[1, 3], [0, 4]])
        attn = torch.rand(2, 2)
        mixed = ((1 - gate) * gen).scatter_add(dim=1, index=ids, source=attn * gate)
    """,
    "source keyword, function form": """
        import torch
        gen = torch.rand(2, 5)
        ids = torch.tensor([[1, 3], [0, 4]])
        mixed = torch.scatter_add(gen, 1, ids, source=torch.rand(2, 2))
    """,
    "src keyword on index_add_ of a parameter (in-place name)": """
        import torch

        def pool(out, batch, feats):
            out.index_add_(0, batch, src=feats)
            return out

        pool(torch.zeros(2, 3), torch.tensor([0, 1, 1]), torch.rand(3, 3))
    """,
    "number through src=, bound to a name first": """
        import torch
        fill = 0.0
        log_x = torch.full((1, 3, 2), -69.0)
        log_x.scatter_(1, torch.tensor([[[2, 0]]]), src=fill)
    """,
    "number through src=, keywords in another order": """
        import torch
        log_x = torch.full((1, 3, 2), -69.0)
        log_x.scatter_(src=0, dim=1, index=torch.tensor([[[2, 0]]]))
    """,
    "scatter_reduce without its reduction": """
        import torch
        values = torch.rand(4)
        segment = torch.tensor([0, 1, 1, 0])
        out = torch.zeros(2)
        out = out.scatter_reduce(0, segment, values)
    """,
    "scatter_reduce's include_self by position": """
        import torch
        out = torch.zeros(2).scatter_reduce(0, torch.tensor([0, 1]), torch.rand(2), "mean", False)
    """,
    "gather in another library's (params, indices) order": """
        import torch

        def keep_rows(msa, n):
            counts = torch.bincount(torch.randint(0, n, (n,)), minlength=n)
            keep = torch.arange(n)[counts == 1]
            return torch.gather(msa, keep)

        keep_rows(torch.rand(6, 3), 6)
    """,
    "one argument to an in-place scatter_ of a parameter": """
        import torch

        def silu_(inputs):
            return inputs.scatter_(torch.sigmoid(inputs))

        silu_(torch.randn(3))
    """,
    "a list as index_select's index": """
        import torch
        table = torch.rand(5, 3)
        rows = table.index_select(0, [1, 3])
    """,
    "a list bound to a name as index_select's index": """
        import torch
        table = torch.rand(5, 3)
        rows = [1, 3]
        picked = table.index_select(0, rows)
    """,
    "a cached (key, value) pair as index_select's input": """
        import torch
        cache = (torch.rand(4, 2, 8), torch.rand(4, 2, 8))
        beams = torch.tensor([1, 1, 0, 3])
        reordered = torch.index_select(cache, 0, beams)
    """,
    "sparse_grad by position": """
        import torch
        scores = torch.rand(2, 4)
        picked = scores.gather(1, torch.tensor([[0], [3]]), False)
    """,
}

SILENT = {
    "the right keywords": """
        import torch
        gen = torch.rand(2, 5)
        ids = torch.tensor([[1, 3], [0, 4]])
        mixed = gen.scatter_add(dim=1, index=ids, src=torch.rand(2, 2))
        out = torch.zeros(2, 3).index_add_(0, torch.tensor([0, 1, 1]), torch.rand(3, 3), alpha=0.5)
        log_x = torch.full((1, 3, 2), -69.0).scatter_(1, torch.tensor([[[2, 0]]]), 0.0)
        sums = torch.zeros(2).scatter_reduce(0, torch.tensor([0, 1]), torch.rand(2), reduce="sum", include_self=False)
    """,
    "a 0-d integer tensor as dim": """
        import torch
        axis = torch.tensor(1)
        picked = torch.rand(2, 4).gather(axis, torch.tensor([[0], [3]]))
    """,
    "take_along_dim without a dim flattens": """
        import torch
        flat = torch.take_along_dim(torch.rand(2, 4), torch.tensor([0, 5]))
    """,
    "a method of an object of unknown type": """
        def share(comm, data):
            return comm.scatter(data, root=0)

        def collect(group, tensors):
            return group.gather(tensors, dst=0)
    """,
    "an in-place name in a file that imports paddle": """
        import paddle
        import torch

        def update(x, index, updates):
            return x.scatter_(index, updates, overwrite=False)
    """,
    "arguments spread from a container": """
        import torch

        def call(x, args, kwargs):
            a = x.scatter_add(*args)
            b = x.scatter_add(**kwargs)
            return a, b
    """,
    "a number whose kind the analysis worked out": """
        import torch
        ids = torch.tensor([0, 2])
        top = ids.max()
        out = torch.zeros(3).index_fill_(0, ids, top)
    """,
}


def _runnable(code: str) -> str:
    return textwrap.dedent(code)


@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_refused_call_is_flagged_and_torch_refuses_it(name, torch):
    code = FLAGGED[name]
    found = [f for f in lint(code) if f.code == "GL033"]
    assert len(found) == 1, [(f.code, f.message) for f in lint(code)]
    line = textwrap.dedent(code).splitlines()[found[0].line - 1]
    with pytest.raises(TypeError) as raised:
        exec(compile(_runnable(code), "<snippet>", "exec"), {})
    assert raised.traceback[-1].lineno + 1 == found[0].line or line.strip() in str(raised.traceback[-1])


@pytest.mark.parametrize("name", sorted(SILENT))
def test_calls_torch_takes_or_of_unknown_callee_are_silent(name):
    assert "GL033" not in codes(SILENT[name])


@pytest.mark.parametrize("name", ["the right keywords", "a 0-d integer tensor as dim",
                                  "take_along_dim without a dim flattens", "a number whose kind the analysis worked out"])
def test_silent_programs_run(name, torch):
    exec(compile(_runnable(SILENT[name]), "<snippet>", "exec"), {})


def test_messages_name_the_signature_and_the_fix():
    by_name = {name: [f for f in lint(code) if f.code == "GL033"][0] for name, code in FLAGGED.items()}
    msg = by_name["source keyword, function form"].message
    assert "`torch.scatter_add(input, dim, index, src)`" in msg and "rename `source=` to `src=`" in msg
    msg = by_name["number through src=, keywords in another order"].message
    assert "src or value" in msg and "rename `src=` to `value=`" in msg
    assert "'sum', 'prod', 'mean', 'amax' or 'amin'" in by_name["scatter_reduce without its reduction"].message
    assert "torch.index_select(input, 0, index)" in by_name["gather in another library's (params, indices) order"].message
    assert "`sparse_grad=` by keyword" in by_name["sparse_grad by position"].message
    msg = by_name["scatter_ without its dim"].message
    assert "`dim` is not given" in msg and "pass the dim first" in msg and "`index` must be" not in msg


def test_keyword_renames_are_fixes_that_run(tmp_path, torch):
    from .test_fixes import fix_with_cli

    code = textwrap.dedent(FLAGGED["source keyword, function form"]) + "expected = torch.scatter_add(gen, 1, ids, torch.rand(2, 2))\n"
    fixed = fix_with_cli(tmp_path, code, unsafe=False)
    assert "source=" not in fixed and "src=torch.rand(2, 2)" in fixed
    exec(compile(fixed, "<fixed>", "exec"), {})
    assert "GL033" not in codes(fixed)


@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_runtime_mode_explains_the_refusal_in_the_same_words(name, torch):
    """The runtime asks the same signature model once torch has refused the call: GL033, a TypeError, and the
    static message's words (the runtime knows every argument's kind, so its reasons are the same or more)."""
    from gather_lint.runtime import GatherLintError, checking

    static = [f for f in lint(FLAGGED[name]) if f.code == "GL033"][0].message
    with checking(), pytest.raises(GatherLintError, match="GL033") as info:
        exec(compile(_runnable(FLAGGED[name]), "<snippet>", "exec"), {})
    assert isinstance(info.value, TypeError)
    assert static.split(":")[0] in str(info.value)  # the signature it quotes


# A reduction named by a string the op does not take: the parser takes the call, the op raises a RuntimeError.
REDUCTIONS = {
    "scatter_reduce's name given to scatter_": ("""
        import torch
        x = torch.zeros(5)
        idx = torch.tensor([0, 1, 1])
        x.scatter_(0, idx, torch.ones(3), reduce="sum")
    """, "use `scatter_add_(dim, index, src)`"),
    "scatter's name given to scatter_reduce by position, through a name": ("""
        import torch
        mode = "add"
        x = torch.zeros(5)
        out = x.scatter_reduce(0, torch.tensor([0, 1, 1]), torch.ones(3), mode)
    """, "write reduce='sum'"),
    "a mean asked of the function form of scatter": ("""
        import torch
        x = torch.zeros(5)
        out = torch.scatter(x, 0, torch.tensor([0, 1, 1]), torch.ones(3), reduce="mean")
    """, "use `scatter_reduce(dim, index, src, 'mean')`"),
    "the value form of scatter_": ("""
        import torch
        x = torch.zeros(5)
        x.scatter_(0, torch.tensor([0, 1, 1]), 1.0, reduce="amax")
    """, "'amax')`"),
}
TAKEN_REDUCTIONS = [
    'x.scatter_(0, idx, torch.ones(3), reduce="add")',
    'x.scatter_(0, idx, 2.0, reduce="multiply")',
    'x.scatter_reduce(0, idx, torch.ones(3), "amax", include_self=False)',
    'x.scatter_reduce(0, idx, torch.ones(3), reduce="max")',  # an alias CPU takes
    'torch.scatter_reduce(x, 0, idx, torch.ones(3), "mean")',
]


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_refused_reduction_is_flagged_and_torch_raises(name, torch):
    code, fix = REDUCTIONS[name]
    found = [f for f in lint(code) if f.code == "GL033"]
    assert len(found) == 1 and fix in found[0].message, [(f.code, f.message) for f in lint(code)]
    with pytest.raises(RuntimeError, match="reduce argument must be either") as raised:
        exec(compile(_runnable(code), "<snippet>", "exec"), {})
    assert str(raised.value).split(",")[0] in found[0].message  # torch's own words are quoted


@pytest.mark.parametrize("call", TAKEN_REDUCTIONS)
def test_reductions_torch_takes_are_silent(call, torch):
    code = f"import torch\nx = torch.zeros(5)\nidx = torch.tensor([0, 1, 1])\nout = {call}\n"
    assert "GL033" not in codes(code)
    exec(code, {})


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_runtime_mode_names_the_refused_reduction(name, torch):
    from gather_lint.runtime import GatherLintError, checking

    code, fix = REDUCTIONS[name]
    static = [f for f in lint(code) if f.code == "GL033"][0].message
    with checking(), pytest.raises(GatherLintError, match="GL033") as info:
        exec(compile(_runnable(code), "<snippet>", "exec"), {})
    assert isinstance(info.value, RuntimeError)
    assert static.split(" names ")[0] in str(info.value) and fix in str(info.value)
