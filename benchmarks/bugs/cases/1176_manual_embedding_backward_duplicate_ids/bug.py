import torch


class RowLookup(torch.autograd.Function):
    @staticmethod
    def forward(ctx, table, ids):
        ctx.save_for_backward(ids)
        ctx.num_rows = table.size(0)
        return table[ids]

    @staticmethod
    def backward(ctx, grad_out):
        (ids,) = ctx.saved_tensors
        grad_table = grad_out.new_zeros(ctx.num_rows, grad_out.size(-1))
        flat_ids = ids.reshape(-1)
        flat_grad = grad_out.reshape(-1, grad_out.size(-1))
        grad_table[flat_ids] += flat_grad
        return grad_table, None


def make_model(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    table = torch.randn(cfg["vocab"], cfg["dim"], generator=g).requires_grad_()
    head = torch.randn(cfg["dim"], generator=g)
    return table, head


def bag_score(table, head, ids):
    vectors = RowLookup.apply(table, ids)
    return (vectors.sum(dim=1) @ head).sigmoid()


def train_step(table, head, batch, lr):
    ids, targets = batch
    loss = torch.nn.functional.binary_cross_entropy(bag_score(table, head, ids), targets)
    loss.backward()
    with torch.no_grad():
        table -= lr * table.grad
    grad = table.grad.clone()
    table.grad = None
    return loss.item(), grad


if __name__ == "__main__":
    cfg = {"vocab": 10, "dim": 4, "seed": 0, "lr": 0.5}
    table, head = make_model(cfg)
    batch = (torch.tensor([[1, 4, 4, 7], [2, 4, 9, 9]]), torch.tensor([1.0, 0.0]))
    loss, grad = train_step(table, head, batch, cfg["lr"])
    print("loss:", loss)
    print("grad row 2:", grad[2].tolist())
    print("grad row 4:", grad[4].tolist())
    print("grad row 9:", grad[9].tolist())
