"""torch.nn.functional's activations and norms keep their input's shape: a buffer built as
`F.normalize(torch.randn(K, dim), dim=1)` keeps its rank where it is written (tensor_ops._ELEMENTWISE)."""
import pytest

from .conftest import codes

QUEUE = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class Memory(nn.Module):
    def __init__(self, size: int, dim: int):
        super().__init__()
        self.register_buffer("bank", {made})

    def write(self, slots, keys):
        '''Args:
            slots (Tensor of shape (n,)): rows to overwrite.
            keys (Tensor of shape (n,)): one key per row.
        '''
        self.bank.index_copy_(0, slots, keys{tail})
"""


@pytest.mark.parametrize("made", [
    "F.normalize(torch.randn(size, dim), dim=1)",
    "F.leaky_relu(torch.randn(size, dim), 0.1)",
    "F.layer_norm(torch.randn(size, dim), (dim,))",
    "nn.functional.dropout(torch.randn(size, dim), 0.1)",
])
@pytest.mark.parametrize("tail, fires", [("", True), ("[:, None].expand(-1, dim)", False)])
def test_functional_keeps_the_rank(made, tail, fires):
    code = QUEUE.format(made=made, tail=tail)
    assert (codes(code) == ["GL001"]) == fires, code


def test_torch_keeps_the_shape_and_rejects_the_vector(torch):
    import torch.nn.functional as F
    bank = F.normalize(torch.randn(6, 4), dim=1)
    assert bank.shape == F.leaky_relu(bank, 0.1).shape == (6, 4)
    with pytest.raises(IndexError, match="dimensionality must match"):
        bank.index_copy_(0, torch.tensor([0, 1]), torch.randn(2))
