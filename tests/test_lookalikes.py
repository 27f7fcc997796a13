"""Calls that look like the family but are not torch's are never sites."""
import pytest

from .conftest import codes

FLOAT_INDEX = "idx = torch.randn(4, 1)\n"


@pytest.mark.parametrize("call", [
    "accelerator.gather(idx)",
    "asyncio.gather(*coros)",
    "asyncio.gather(idx, idx)",
    "dist.all_gather(tensors, idx)",
    "np.take_along_axis(x, idx, axis=1)",
    "np.take_along_dim(x, idx, 1)",
    "tf.gather(x, idx)",
    "jnp.take_along_axis(x, idx, axis=1)",
    "store.gather('key', idx)",
    "x.gather(*args)",
    "x.gather(**kw)",
    "gather(x, 1, idx)",
])
def test_lookalikes_are_not_sites(call):
    code = ("import asyncio\nimport numpy as np\nimport tensorflow as tf\nimport jax.numpy as jnp\n"
            "import torch\nimport torch.distributed as dist\n"
            f"def f(accelerator, coros, tensors, store, args, kw, gather):\n    x = torch.randn(4, 8)\n    {FLOAT_INDEX}    return {call}\n")
    assert codes(code) == []


@pytest.mark.parametrize("call", ["x.gather(idx)", "x.gather(1, idx, 2, 3, 4)", "x.gather(dim=1, index=idx, axis=2)"])
def test_torch_tensor_calls_outside_the_signature_are_refused_not_sites(call, torch):
    """On a value known to be a tensor these are torch's gather, which refuses them (GL033); no rule reads
    them as a (dim, index) call, so the float index is not reported (GL008)."""
    code = f"import torch\nx = torch.randn(4, 8)\n{FLOAT_INDEX}out = {call}\n"
    assert codes(code) == ["GL033"]
    with pytest.raises(TypeError):
        exec(code, {})


@pytest.mark.parametrize("imports,call", [
    ("import torch as th", "th.gather(x, 1, idx)"),
    ("from torch import gather", "gather(x, 1, idx)"),
    ("from torch import gather as g", "g(x, 1, idx)"),
    ("import torch", "torch.Tensor.gather(x, 1, idx)"),
    ("import torch", "x.gather(dim=1, index=idx)"),
    ("import torch", "torch.gather(input=x, dim=1, index=idx)"),
    ("import torch", "torch.gather(x, 1, index=idx)"),
    ("import torch", "x.scatter_add_(1, idx, src)"),
    ("import torch", "torch.scatter_reduce(x, 1, idx, src, 'sum')"),
    ("import torch", "x.scatter_(1, idx, 2.0)"),
    ("import torch", "x.scatter(1, idx, value=2.0)"),
    ("import torch", "torch.take_along_dim(x, idx, dim=1)"),
    ("import torch", "x.take_along_dim(indices=idx, dim=1)"),
])
def test_every_spelling_is_a_site(imports, call):
    code = f"{imports}\nimport torch\ndef f():\n    x = torch.randn(4, 8)\n    src = torch.randn(4, 1)\n    {FLOAT_INDEX}    return {call}\n"
    assert codes(code) == ["GL008"], call


def test_an_op_imported_under_another_name_is_a_site_in_any_block():
    """`from torch import gather as g` at the top, `g(...)` in the third block: the block is parsed and its
    function analysed though it spells no op name."""
    code = ("from torch import gather as g\nimport torch\n\n\ndef helper():\n    return 1\n\n\n"
            "def f():\n    x = torch.randn(4, 8)\n    " + FLOAT_INDEX + "    return g(x, 1, idx)\n\n\n"
            "def other():\n    return 2\n")
    assert codes(code) == ["GL008"]
