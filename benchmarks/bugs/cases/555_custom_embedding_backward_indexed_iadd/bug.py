import torch
import torch.nn as nn


class EmbeddingLookup(torch.autograd.Function):
    @staticmethod
    def forward(ctx, weight, ids):
        ctx.save_for_backward(ids)
        ctx.num_rows = weight.size(0)
        return weight[ids]

    @staticmethod
    def backward(ctx, grad_out):
        (ids,) = ctx.saved_tensors
        dim = grad_out.size(-1)
        grad_weight = grad_out.new_zeros(ctx.num_rows, dim)
        grad_weight[ids.reshape(-1)] += grad_out.reshape(-1, dim)
        return grad_weight, None


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab_size, dim, num_classes):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(vocab_size, dim) * 0.1)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, ids):
        return self.head(EmbeddingLookup.apply(self.weight, ids).mean(dim=1))


def train_step(model, ids, labels, lr=0.5):
    loss = nn.functional.cross_entropy(model(ids), labels)
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= lr * p.grad
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BagOfEmbeddings(vocab_size=12, dim=4, num_classes=3)
    ids = torch.tensor([[1, 5, 1, 1], [5, 7, 2, 1]])
    labels = torch.tensor([0, 2])

    loss = nn.functional.cross_entropy(model(ids), labels)
    loss.backward()
    expected = torch.autograd.grad(
        nn.functional.cross_entropy(model.head(nn.functional.embedding(ids, model.weight).mean(1)), labels),
        model.weight,
    )[0]
    print("grad row 1 :", model.weight.grad[1].tolist())
    print("expected   :", expected[1].tolist())
    print("train loss :", train_step(model, ids, labels))
