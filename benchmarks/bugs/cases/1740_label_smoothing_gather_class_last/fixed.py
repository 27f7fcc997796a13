import torch
import torch.nn as nn
import torch.nn.functional as F


class LabelSmoothingCrossEntropy(nn.Module):
    "Cross entropy with label smoothing; accepts (bs, n_class) or (bs, n_class, seq_len) outputs."

    def __init__(self, eps=0.1, reduction="mean"):
        super().__init__()
        self.eps, self.reduction = eps, reduction

    def forward(self, output, target):
        c = output.size(1)
        log_preds = F.log_softmax(output, dim=1)
        smooth = -log_preds.sum(dim=1)
        nll = -log_preds.gather(1, target.unsqueeze(1)).squeeze(1)
        loss = smooth * self.eps / c + (1 - self.eps) * nll
        if self.reduction == "mean":
            return loss.mean()
        return loss.sum() if self.reduction == "sum" else loss


def reference_loss(output, target, eps):
    bs, n_class, seq_len = output.shape
    total = 0.0
    for b in range(bs):
        for t in range(seq_len):
            lp = F.log_softmax(output[b, :, t], dim=0)
            total += -lp.sum() * eps / n_class + (1 - eps) * -lp[target[b, t]]
    return total / (bs * seq_len)


if __name__ == "__main__":
    torch.manual_seed(0)
    lmce = LabelSmoothingCrossEntropy()
    output = torch.randn(32, 10, 5)
    target = torch.randint(0, 10, (32, 5))
    flat = lmce(output.transpose(1, 2).flatten(0, 1), target.flatten())
    seq = lmce(output, target)
    ref = reference_loss(output, target, lmce.eps)
    assert torch.allclose(flat, ref, atol=1e-5) and torch.allclose(seq, ref, atol=1e-5)
    print("ok")
