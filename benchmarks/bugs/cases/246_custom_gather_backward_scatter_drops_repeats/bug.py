import torch
import torch.nn as nn


class GatherRows(torch.autograd.Function):
    """Row lookup with a hand-written backward, kept so the lookup can run on pinned host tables."""

    @staticmethod
    def forward(ctx, table, index):
        ctx.save_for_backward(index)
        ctx.table_shape = table.shape
        rows = index.unsqueeze(-1).expand(-1, table.size(1))
        return table.gather(0, rows)

    @staticmethod
    def backward(ctx, grad_output):
        (index,) = ctx.saved_tensors
        grad_table = grad_output.new_zeros(ctx.table_shape)
        rows = index.unsqueeze(-1).expand(-1, grad_output.size(1))
        grad_table.scatter_(0, rows, grad_output)
        return grad_table, None


class BagOfFeatures(nn.Module):
    def __init__(self, num_features, dim, num_labels):
        super().__init__()
        self.table = nn.Parameter(torch.randn(num_features, dim) * 0.1)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, feature_ids, offsets):
        rows = GatherRows.apply(self.table, feature_ids)
        bags = torch.stack([rows[s:e].sum(0) for s, e in zip(offsets[:-1], offsets[1:])])
        return self.classifier(bags)


def make_batch(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    ids = torch.randint(0, cfg["num_features"], (cfg["tokens"],), generator=g)
    labels = torch.randint(0, cfg["num_labels"], (cfg["bags"],), generator=g)
    offsets = torch.linspace(0, cfg["tokens"], cfg["bags"] + 1).long()
    return ids, offsets, labels


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_features": 6, "dim": 4, "num_labels": 3, "tokens": 12, "bags": 3, "seed": 1}
    model = BagOfFeatures(cfg["num_features"], cfg["dim"], cfg["num_labels"])
    ids, offsets, labels = make_batch(cfg)
    loss = nn.functional.cross_entropy(model(ids, offsets), labels)
    loss.backward()
    custom = model.table.grad.clone()
    model.table.grad = None
    rows = model.table[ids]
    bags = torch.stack([rows[s:e].sum(0) for s, e in zip(offsets[:-1], offsets[1:])])
    nn.functional.cross_entropy(model.classifier(bags), labels).backward()
    print("feature ids:", ids.tolist())
    print("table gradient norm per row:", [round(v, 4) for v in custom.norm(dim=1).tolist()])
    print("autograd reference:        ", [round(v, 4) for v in model.table.grad.norm(dim=1).tolist()])
