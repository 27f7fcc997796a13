import torch


class RowLookup(torch.autograd.Function):
    """Embedding lookup with a hand-written backward (used by the CPU parameter server)."""

    @staticmethod
    def forward(ctx, table, ids):
        # table: [V, D], ids: [B, L] -> out: [B, L, D]
        ctx.save_for_backward(ids)
        ctx.num_rows = table.shape[0]
        return table.index_select(0, ids.reshape(-1)).view(*ids.shape, table.shape[1])

    @staticmethod
    def backward(ctx, grad_out):
        (ids,) = ctx.saved_tensors
        dim = grad_out.shape[-1]
        flat_ids = ids.reshape(-1, 1).expand(-1, dim)  # [B*L, D]
        grad_rows = grad_out.reshape(-1, dim)  # [B*L, D]
        grad_table = grad_out.new_zeros(ctx.num_rows, dim)  # [V, D]
        grad_table.scatter_add_(0, flat_ids, grad_rows)
        return grad_table, None


def train_step(table, ids, targets, lr=0.1):
    emb = RowLookup.apply(table, ids)  # [B, L, D]
    loss = ((emb.sum(1) - targets) ** 2).mean()
    loss.backward()
    grad = table.grad.clone()
    with torch.no_grad():
        table -= lr * table.grad
        table.grad = None
    return loss.item(), grad


if __name__ == "__main__":
    torch.manual_seed(0)
    table = torch.randn(10, 4, requires_grad=True)
    ids = torch.tensor([[1, 3, 3, 7], [2, 3, 5, 5]])
    targets = torch.randn(2, 4)
    ref_table = table.detach().clone().requires_grad_(True)
    loss, grad = train_step(table, ids, targets)
    ref = torch.nn.functional.embedding(ids, ref_table).sum(1)
    ((ref - targets) ** 2).mean().backward()
    loops = torch.zeros(10, 4)
    up = 2 * (ref.detach() - targets) / ref.numel()
    for b in range(ids.shape[0]):
        for t in range(ids.shape[1]):
            for d in range(4):
                loops[int(ids[b, t]), d] += up[b, d].item()
    assert torch.allclose(grad, loops, atol=1e-6)
    assert torch.allclose(grad, ref_table.grad, atol=1e-6)
    print("ok")
