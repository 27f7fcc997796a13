import torch
import torch.nn.functional as F
from torch import nn


class SoftLabelCrossEntropyLoss(nn.Module):
    def __init__(self, ignore_index=-100, reduction="mean"):
        super().__init__()
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.eps = torch.finfo(torch.float32).eps

    def compute_loss(self, targets, scores):
        per_sample_per_target_loss = -targets * F.log_softmax(scores, dim=-1)
        per_sample_loss = torch.sum(per_sample_per_target_loss, -1)
        loss = per_sample_loss.sum()
        if self.reduction == "mean":
            loss /= torch.sum(torch.sum(targets, -1) > 0).clamp(min=1)
        return loss


class LabelSmoothingCrossEntropyLoss(SoftLabelCrossEntropyLoss):
    def __init__(self, label_smoothing=0.1, ignore_index=-100, reduction="mean"):
        super().__init__(ignore_index, reduction)
        self.label_smoothing = label_smoothing

    def smooth_targets(self, targets, n_classes):
        if targets.dim() == 1:
            targets = targets.unsqueeze(1)
        mask = targets.ne(self.ignore_index)

        smoothing_value = self.label_smoothing / (n_classes - 1)
        one_hot = torch.full((n_classes,), smoothing_value, device=targets.device).repeat(targets.size(0), 1)
        one_hot.scatter_(1, targets, 1 - self.label_smoothing)
        return one_hot * mask.float()

    def forward(self, sample_list, model_output):
        scores = model_output["scores"]
        one_hot = self.smooth_targets(sample_list["targets"], scores.size(1))
        return {"label_smoothing_cross_entropy": self.compute_loss(one_hot, scores)}


def build_loss(config):
    return LabelSmoothingCrossEntropyLoss(**config["params"])


def make_batch(config, generator):
    n, c = config["batch_size"], config["num_classes"]
    targets = torch.randint(0, c, (n,), generator=generator)
    targets[config["unlabeled"]] = config["loss"]["params"]["ignore_index"]
    scores = torch.randn(n, c, generator=generator)
    return {"targets": targets}, {"scores": scores}


if __name__ == "__main__":
    config = {
        "batch_size": 6,
        "num_classes": 10,
        "unlabeled": [1, 4],
        "loss": {"type": "label_smoothing_cross_entropy", "params": {"label_smoothing": 0.1, "ignore_index": -1}},
    }
    loss_fn = build_loss(config["loss"])
    sample_list, model_output = make_batch(config, torch.Generator().manual_seed(0))
    print("loss:", loss_fn(sample_list, model_output)["label_smoothing_cross_entropy"].item())
