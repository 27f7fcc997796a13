import torch
import torch.nn as nn


class RowGather(torch.autograd.Function):
    @staticmethod
    def forward(ctx, weight, ids):
        ctx.save_for_backward(ids)
        ctx.num_rows = weight.size(0)
        return weight.index_select(0, ids)

    @staticmethod
    def backward(ctx, grad_out):
        (ids,) = ctx.saved_tensors
        grad_weight = grad_out.new_zeros(ctx.num_rows, grad_out.size(1))
        grad_weight.index_add_(0, ids, grad_out)
        return grad_weight, None


class BagOfWordsClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = nn.Parameter(torch.randn(50, 8))
        self.head = nn.Linear(8, 3)

    def forward(self, ids, offsets):
        rows = RowGather.apply(self.table, ids)
        bags = torch.stack([rows[s:e].sum(0) for s, e in zip(offsets[:-1], offsets[1:])])
        return self.head(bags)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BagOfWordsClassifier()
    ids = torch.tensor([4, 7, 4, 4, 12, 7, 30, 4])
    offsets = [0, 4, 8]
    loss = nn.functional.cross_entropy(model(ids, offsets), torch.tensor([0, 2]))
    loss.backward()
    table = model.table.detach().clone().requires_grad_(True)
    rows = table[ids]
    bags = torch.stack([rows[s:e].sum(0) for s, e in zip(offsets[:-1], offsets[1:])])
    nn.functional.cross_entropy(model.head(bags), torch.tensor([0, 2])).backward()
    assert torch.allclose(model.table.grad, table.grad, atol=1e-6)
    head_grad = torch.autograd.grad(
        nn.functional.cross_entropy(model(ids, offsets), torch.tensor([0, 2])), model.table)[0]
    ref = torch.zeros(50, 8)
    with torch.no_grad():
        logits = model(ids, offsets)
        dlogits = (logits.softmax(-1) - nn.functional.one_hot(torch.tensor([0, 2]), 3)) / 2
        dbags = dlogits @ model.head.weight
    for b, (s, e) in enumerate(zip(offsets[:-1], offsets[1:])):
        for pos in range(s, e):
            ref[int(ids[pos])] += dbags[b]
    assert torch.allclose(head_grad, ref, atol=1e-6)
    print("ok")
