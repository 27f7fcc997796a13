import torch
import torch.nn.functional as F
from jaxtyping import Float, UInt8
from torch import Tensor


class InverseFrequencyNLL:
    """Per-sample negative log-likelihood scaled by the inverse frequency of the sample's class."""

    def __init__(self, train_labels: UInt8[Tensor, "n"], num_classes: int):
        counts = torch.bincount(train_labels, minlength=num_classes).float()
        self.class_weight: Float[Tensor, "classes"] = counts.sum() / (num_classes * counts.clamp_min(1.0))

    def sample_loss(self, logits: Float[Tensor, "classes"], label: UInt8[Tensor, ""]) -> Float[Tensor, ""]:
        weight = self.class_weight[label]
        nll = -F.log_softmax(logits, dim=-1)[label]
        return (weight * nll).sum()

    def __call__(self, logits: Float[Tensor, "batch classes"], labels: UInt8[Tensor, "batch"]) -> Float[Tensor, ""]:
        losses = [self.sample_loss(logits[i], labels[i]) for i in range(logits.shape[0])]
        return torch.stack(losses).mean()


def make_split(n: int, num_classes: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    # majority class of each crop, stored as uint8 like the segmentation masks it comes from
    labels = torch.multinomial(torch.tensor([0.6, 0.25, 0.1, 0.05]), n, replacement=True, generator=g).to(torch.uint8)
    logits = torch.randn(n, num_classes, generator=g)
    return logits, labels


if __name__ == "__main__":
    train_logits, train_labels = make_split(500, 4, seed=0)
    criterion = InverseFrequencyNLL(train_labels, num_classes=4)
    val_logits, val_labels = make_split(8, 4, seed=4)
    print("class weights:", [round(w, 3) for w in criterion.class_weight.tolist()])
    print("labels:", val_labels.tolist())
    print("per-sample losses:", [round(criterion.sample_loss(val_logits[i], val_labels[i]).item(), 3) for i in range(8)])
    print("weighted NLL:", criterion(val_logits, val_labels).item())
