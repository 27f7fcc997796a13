import torch
from jaxtyping import Float, Int
from torch import Tensor


class NodeEmbedding:
    def __init__(self, num_nodes: int, dim: int, init_acc: float = 0.01):
        self.weight: Float[Tensor, "num_nodes dim"] = torch.randn(num_nodes, dim) * 0.1
        self.state_sum: Float[Tensor, "num_nodes dim"] = torch.full((num_nodes, dim), init_acc)

    def lookup(self, idx: Int[Tensor, " n"]) -> Float[Tensor, "n dim"]:
        return self.weight[idx].clone().requires_grad_(True)


def sparse_adagrad_step(
    emb: NodeEmbedding,
    idx: Int[Tensor, " n"],
    grad: Float[Tensor, "n dim"],
    lr: float,
    eps: float = 1e-10,
) -> None:
    """Adagrad on the rows touched by this mini-batch (one gradient row per lookup)."""
    uniq, inverse = torch.unique(idx, return_inverse=True)
    row_grad: Float[Tensor, "u dim"] = grad.new_zeros(uniq.size(0), grad.size(1))
    row_grad.index_add_(0, inverse, grad)
    emb.state_sum[uniq] += row_grad * row_grad
    std: Float[Tensor, "u dim"] = emb.state_sum[uniq].sqrt().add_(eps)
    emb.weight[uniq] -= lr * row_grad / std


def link_loss(h_src: Float[Tensor, "e dim"], h_dst: Float[Tensor, "e dim"],
              label: Float[Tensor, " e"]) -> Float[Tensor, ""]:
    score = (h_src * h_dst).sum(-1)
    return torch.nn.functional.binary_cross_entropy_with_logits(score, label)


if __name__ == "__main__":
    torch.manual_seed(0)
    emb = NodeEmbedding(num_nodes=6, dim=4)
    before = emb.weight.clone()
    # sampled edges: node 2 is the source of three edges
    src = torch.tensor([2, 2, 0, 2, 5])
    dst = torch.tensor([1, 3, 4, 4, 0])
    label = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
    idx = torch.cat([src, dst])
    h = emb.lookup(idx)
    loss = link_loss(h[: len(src)], h[len(src):], label)
    loss.backward()
    sparse_adagrad_step(emb, idx, h.grad, lr=0.5)
    # dense reference: accumulate one gradient per node, then one Adagrad step
    dense = torch.zeros(6, 4)
    for k, node in enumerate(idx.tolist()):
        dense[node] += h.grad[k]
    expected = before.clone()
    for node in range(6):
        if node in idx.tolist():
            state = 0.01 + dense[node] * dense[node]
            expected[node] = before[node] - 0.5 * dense[node] / (state.sqrt() + 1e-10)
    assert torch.allclose(emb.weight, expected, atol=1e-5)
    assert torch.allclose(emb.state_sum, 0.01 + dense * dense, atol=1e-7)
    print("ok")
