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
        grad_table.scatter_add_(0, rows, grad_output)
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
    logits = model(ids, offsets)
    rows = model.table[ids]
    rows.retain_grad()
    bags = torch.stack([rows[s:e].sum(0) for s, e in zip(offsets[:-1], offsets[1:])])
    nn.functional.cross_entropy(model.classifier(bags), labels).backward()
    per_token = rows.grad.clone()
    model.zero_grad()
    nn.functional.cross_entropy(logits, labels).backward()
    for f in range(cfg["num_features"]):
        for d in range(cfg["dim"]):
            expected = sum(per_token[t, d].item() for t in range(cfg["tokens"]) if ids[t].item() == f)
            assert abs(model.table.grad[f, d].item() - expected) < 1e-6
    print("ok")
