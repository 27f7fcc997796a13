import torch
import torch.nn as nn


class RowLookup(torch.autograd.Function):
    """Embedding lookup with a hand-written backward (keeps the weight grad dense)."""

    @staticmethod
    def forward(ctx, weight, ids):
        ctx.save_for_backward(ids)
        ctx.num_rows = weight.shape[0]
        return weight.index_select(0, ids.reshape(-1)).view(*ids.shape, weight.shape[1])

    @staticmethod
    def backward(ctx, grad_out):
        (ids,) = ctx.saved_tensors
        grad_weight = grad_out.new_zeros(ctx.num_rows, grad_out.shape[-1])
        grad_weight.index_add_(0, ids.reshape(-1), grad_out.reshape(-1, grad_out.shape[-1]))
        return grad_weight, None


class BagOfWordsScorer(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.table = nn.Parameter(torch.randn(vocab, dim))
        self.head = nn.Linear(dim, 1)

    def forward(self, ids):
        return self.head(RowLookup.apply(self.table, ids).sum(dim=1)).squeeze(-1)


def train_step(model, ids, target):
    model.zero_grad()
    loss = ((model(ids) - target) ** 2).mean()
    loss.backward()
    return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BagOfWordsScorer(10, 4)
    ids = torch.tensor([[1, 3, 3, 7], [2, 3, 5, 5]])
    target = torch.randn(2)
    train_step(model, ids, target)
    got = model.table.grad.clone()
    # reference: plain autograd through python-loop lookups
    table = model.table.detach().clone().requires_grad_(True)
    rows = []
    for b in range(ids.shape[0]):
        acc = torch.zeros(4)
        for t in ids[b].tolist():
            acc = acc + table[t]
        rows.append(model.head(acc))
    pred = torch.cat(rows)
    ((pred - target) ** 2).mean().backward()
    assert torch.allclose(got, table.grad, atol=1e-6)
    print("ok")
