import torch
from torch import nn


class CenterlossFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, feature, label, centers):
        ctx.save_for_backward(feature, label, centers)
        centers_batch = centers.index_select(0, label)
        return (feature - centers_batch).pow(2).sum() / 2.0

    @staticmethod
    def backward(ctx, grad_output):
        feature, label, centers = ctx.saved_tensors
        centers_batch = centers.index_select(0, label)
        diff = centers_batch - feature
        counts = centers.new_ones(centers.size(0))
        ones = torch.ones_like(counts)
        grad_centers = torch.zeros_like(centers)
        counts.scatter_add_(0, label, ones)
        grad_centers.scatter_add_(0, label.unsqueeze(1).expand(feature.size()), diff)
        grad_centers = grad_output * grad_centers / counts.view(-1, 1)
        return -grad_output * diff, None, grad_centers


class CenterLoss(nn.Module):
    def __init__(self, num_classes, feat_dim, loss_weight=1.0):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(num_classes, feat_dim))
        self.loss_weight = loss_weight

    def forward(self, label, feat):
        return self.loss_weight * CenterlossFunction.apply(feat, label, self.centers)


if __name__ == "__main__":
    torch.manual_seed(0)
    center_loss = CenterLoss(10, 2, loss_weight=0.5)
    feat = torch.randn(16, 2, requires_grad=True)
    label = torch.randint(0, 10, (16,))
    loss = center_loss(label, feat)
    loss.backward()
    print("center loss:", loss.item())
    print("grad of centers:", center_loss.centers.grad[:3])
